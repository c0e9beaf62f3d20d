/**
 * docs/configuration.md's tables, written from the settings table (settings.ts) so the docs cannot
 * drift from what the server reads. `npm run docs:settings` rewrites them; settings.test.ts fails
 * when the file differs from what this renders.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SETTINGS, type SettingGroup } from './settings.js';

export const CONFIGURATION_DOC = fileURLToPath(new URL('../../docs/configuration.md', import.meta.url));
const START = '<!-- settings:start (npm run docs:settings writes what follows) -->';
const END = '<!-- settings:end -->';

/** A sentence under a group's heading, where the group needs one. */
const GROUP_NOTES: Partial<Record<SettingGroup, string>> = {
  'Request threads': 'SQLite only ([request-threads.md](request-threads.md)).',
  'Request limits': 'Each answers the status it names, with a reason naming the setting (below the tables).',
  ClickHouse: '([clickhouse.md](clickhouse.md))',
  'Other commands': 'Read by commands other than `weft serve`.',
};

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

export function renderSettingsTables(): string {
  const groups = [...new Set(SETTINGS.map((s) => s.group))];
  const parts = groups.map((group) => {
    const rows = SETTINGS.filter((s) => s.group === group).map(
      (s) => `| \`${s.env}\`${s.flag ? ` / \`--${s.flag}\`` : ''} | ${cell(s.default)} | ${cell(s.doc)} |`,
    );
    const note = GROUP_NOTES[group] ? `${GROUP_NOTES[group]}\n\n` : '';
    return `## ${group}\n\n${note}| variable / flag | default | meaning |\n| --- | --- | --- |\n${rows.join('\n')}\n`;
  });
  return `${START}\n\n${parts.join('\n')}\n${END}`;
}

/** The configuration doc with its generated part replaced by `renderSettingsTables()`. */
export function renderedConfigurationDoc(current: string): string {
  const start = current.indexOf(START);
  const end = current.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${CONFIGURATION_DOC} lacks the settings markers`);
  return current.slice(0, start) + renderSettingsTables() + current.slice(end + END.length);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(CONFIGURATION_DOC, renderedConfigurationDoc(readFileSync(CONFIGURATION_DOC, 'utf8')));
  console.log(`wrote ${CONFIGURATION_DOC}`);
}
