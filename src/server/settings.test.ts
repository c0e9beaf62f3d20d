/**
 * The settings table (settings.ts) is the one list of settings: the code reads no setting it
 * lacks, and docs/configuration.md and `weft --help` say what it says.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { serverFlags } from './process/cli.js';
import { CLUSTER_FLAGS } from './store/clickhouse/clusterLayout.js';
import { readSetting, SETTINGS } from './settings.js';
import { CONFIGURATION_DOC, renderedConfigurationDoc } from './settingsDocs.js';

/** Names that are not settings: a constant, and the tests' and benchmarks' own variables (documented by hand). */
const NOT_SETTINGS = /^WEFT_(VERSION|TEST_\w+|E2E_\w+|FUZZ_\w+)$/;

function namesReadByServerCode(): Set<string> {
  const files = execFileSync('git', ['ls-files', 'src/server'], { encoding: 'utf8' })
    .split('\n')
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.includes('/testing/'));
  const names = new Set<string>();
  for (const file of files) {
    // A whole name: the prefixes code builds messages from (`WEFT_MAX_`) end with `_`.
    for (const m of readFileSync(file, 'utf8').matchAll(/\b(?:WEFT_[A-Z_]*[A-Z]|OPENAI_(?:API_KEY|BASE_URL))\b/g)) names.add(m[0]);
  }
  return names;
}

describe('the settings table', () => {
  it('lists every setting the server code names', () => {
    const listed = new Set(SETTINGS.map((s) => s.env));
    const missing = [...namesReadByServerCode()].filter((name) => !listed.has(name) && !NOT_SETTINGS.test(name));
    expect(missing).toEqual([]);
  });

  it('refuses to read a setting it does not list', () => {
    expect(() => readSetting('WEFT_NO_SUCH_SETTING', {})).toThrow(/not in the settings table/);
  });

  it('is what docs/configuration.md says (npm run docs:settings rewrites it)', () => {
    const doc = readFileSync(CONFIGURATION_DOC, 'utf8');
    expect(doc).toBe(renderedConfigurationDoc(doc));
  });

  it('documents the tests’ own variables by hand in the same file', () => {
    const doc = readFileSync(CONFIGURATION_DOC, 'utf8');
    for (const name of ['WEFT_TEST_STORES', 'WEFT_TEST_CLICKHOUSE_URL', 'WEFT_FUZZ_SEED']) expect(doc).toContain(`\`${name}\``);
  });

  it('is what `weft --help` lists, and every flag it names is a flag of serve or migrate', () => {
    const help = execFileSync(process.execPath, ['bin/weft.js', '--help'], { encoding: 'utf8' });
    for (const s of SETTINGS) expect(help).toContain(s.flag ? `${s.env} (--${s.flag})` : s.env);
    const flags = new Set([...Object.keys(serverFlags), ...Object.keys(CLUSTER_FLAGS)]);
    expect(SETTINGS.filter((s) => s.flag && !flags.has(s.flag)).map((s) => s.flag)).toEqual([]);
  });
});
