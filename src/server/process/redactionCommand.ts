/**
 * `weft redaction add|list|remove`: redaction rules managed on the data directory (or ClickHouse)
 * directly, like `weft user add` (docs/security/redaction.md). A running server applies a change
 * from its next write on (SQLite), or within a second (ClickHouse replicas).
 */
import { parseArgs } from 'node:util';
import { NAME_PART_PATTERN, PROJECT_ID_PATTERN } from '../../contract/common.js';
import { BUILTIN_NAMES, KEY_NAME_PATTERN, LABEL_PATTERN } from '../../contract/redaction.js';
import { loadConfig, storeConfigOf } from '../config.js';
import { recordCli } from '../audit/auditTrail.js';
import { addRule, listRules, markerOf, removeRule } from '../domain/redaction/rules.js';
import { ApiError } from '../errors.js';
import { openStore } from '../store/openStore.js';
import type { Store } from '../store/Store.js';

const HELP = `weft redaction add <entity[/project]> (--key NAME | --pattern BUILTIN_OR_REGEX) [--label NAME]
weft redaction list <entity[/project]>
weft redaction remove <rule id>
  (each also takes --data-dir or --store clickhouse --clickhouse-url ... like serve)

Rules apply at ingest, to data written after they are added. --key redacts the whole value under
that object key (any case); --pattern is a built-in (${BUILTIN_NAMES.join(', ')}) or a JavaScript
regular expression, of which only the matched text is replaced. See docs/security/redaction.md.`;

const flags = {
  'data-dir': { type: 'string' },
  store: { type: 'string' },
  'clickhouse-url': { type: 'string' },
  'clickhouse-user': { type: 'string' },
  'clickhouse-database': { type: 'string' },
  key: { type: 'string' },
  pattern: { type: 'string' },
  label: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function redactionCommand(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: flags });
  if (values.help || !sub || !['add', 'list', 'remove'].includes(sub)) return void console.log(HELP);
  const target = positionals[0];
  if (!target) throw new Error(`usage:\n${HELP}`);
  if (sub !== 'remove' && !PROJECT_ID_PATTERN.test(target) && !NAME_PART_PATTERN.test(target)) {
    throw new Error(`${JSON.stringify(target)} is neither an entity nor "<entity>/<project>"`);
  }
  const storeFlags: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) if (typeof v === 'string' && !['key', 'pattern', 'label'].includes(k)) storeFlags[k] = v;
  const store = await openStore(storeConfigOf(loadConfig(process.env, storeFlags)));
  try {
    if (sub === 'add') await add(store, target, values);
    else if (sub === 'list') await list(store, target);
    else await remove(store, target);
  } finally {
    await store.close();
  }
}

async function remove(store: Store, ruleId: string) {
  const rule = await store.redaction.getRule(ruleId);
  if (!rule || !(await removeRule(store, ruleId))) return void console.log(`No rule ${ruleId}.`);
  await recordCli(store, {
    action: 'redaction.changed',
    target: rule.scope,
    entity: rule.scope.split('/')[0]!,
    projectId: rule.scope.includes('/') ? rule.scope : null,
    details: { change: 'removed', rule_id: rule.id, kind: rule.kind },
  });
  console.log(`Removed rule ${ruleId}.`);
}

async function add(
  store: Store,
  scope: string,
  values: { key?: string | undefined; pattern?: string | undefined; label?: string | undefined },
) {
  if ((values.key === undefined) === (values.pattern === undefined))
    throw new Error('give exactly one of --key NAME or --pattern BUILTIN_OR_REGEX');
  if (values.key !== undefined && !KEY_NAME_PATTERN.test(values.key)) throw new Error('--key: 1-128 letters, digits or "_.$@-"');
  if (values.label !== undefined && !LABEL_PATTERN.test(values.label)) throw new Error('--label: 1-40 of a-z, 0-9, "_" and "-"');
  try {
    const rule = await addRule(store, {
      scope,
      key: values.key,
      pattern: values.pattern,
      label: values.label,
      createdBy: 'cli',
      now: Date.now() * 1000,
    });
    await recordCli(store, {
      action: 'redaction.changed',
      target: scope,
      entity: scope.split('/')[0]!,
      projectId: scope.includes('/') ? scope : null,
      details: { change: 'added', rule_id: rule.id, kind: rule.kind },
    });
    console.log(`Added rule ${rule.id} to ${scope}: matches become ${markerOf(rule)}. It applies to data written from now on.`);
  } catch (err) {
    // A refused pattern says why (a 422 over HTTP).
    if (err instanceof ApiError) throw new Error(err.message, { cause: err });
    throw err;
  }
}

async function list(store: Store, target: string) {
  const rules = await listRules(store, target.includes('/') ? { projectId: target } : { entity: target });
  if (!rules.length) return void console.log(`No redaction rules in force in ${target}.`);
  for (const r of rules) {
    const from = r.scope.includes('/') ? 'project' : `entity ${r.scope}`;
    console.log(`${r.id}  ${r.kind.padEnd(7)}  ${r.value}  → ${markerOf(r)}  (from ${from})`);
  }
}
