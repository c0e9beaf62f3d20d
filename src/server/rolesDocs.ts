/**
 * The endpoint table of docs/security/roles.md, written from the contract's endpoint table so
 * the docs cannot drift from what the route layer enforces. `npm run docs:roles` rewrites it;
 * rolesDocs.test.ts fails when the file differs from what this renders.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { endpoints, type EndpointDef } from '../contract/endpoints.js';

export const ROLES_DOC = fileURLToPath(new URL('../../docs/security/roles.md', import.meta.url));
const START = '<!-- roles:start (npm run docs:roles writes what follows) -->';
const END = '<!-- roles:end -->';

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

const leastRole = (e: EndpointDef): string => (e.public ? 'none (public)' : `\`${e.role}\``);

export function renderRolesTable(): string {
  const rows = Object.entries(endpoints as Record<string, EndpointDef>).map(
    ([name, e]) => `| \`${name}\` | ${e.method} | \`${cell(e.path)}\` | ${leastRole(e)} | ${cell(e.roleNote ?? '')} |`,
  );
  return `${START}\n\n| endpoint | method | path | least role | where |\n| --- | --- | --- | --- | --- |\n${rows.join('\n')}\n\n${END}`;
}

/** The roles doc with its generated part replaced by `renderRolesTable()`. */
export function renderedRolesDoc(current: string): string {
  const start = current.indexOf(START);
  const end = current.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${ROLES_DOC} lacks the roles markers`);
  return current.slice(0, start) + renderRolesTable() + current.slice(end + END.length);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(ROLES_DOC, renderedRolesDoc(readFileSync(ROLES_DOC, 'utf8')));
  console.log(`wrote ${ROLES_DOC}`);
}
