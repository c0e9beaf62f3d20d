/**
 * The `weft` command line: `serve`, `user add`, `key create`, `demo`, `dev`, `migrate`, `doctor`.
 * Each command prints what it did and, on failure, what to do next.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createApiKey } from '../auth/apiKeys.js';
import { recordCli } from '../audit/auditTrail.js';
import { hashSecret } from '../auth/secrets.js';
import { ADMIN_EMAIL_ISSUER } from '../auth/oidc.js';
import { loadConfig, storeConfigOf, type ServerConfig } from '../config.js';
import { defaultEntityOf } from '../domain/accounts/defaultEntity.js';
import { NAME_PART_PATTERN, NAME_PART_RULE } from '../../contract/common.js';
import { ROLES, type Role } from '../../contract/roles.js';
import type { UserRecord } from '../store/Store.js';
import { LIMIT_SPECS } from '../limits.js';
import { SETTINGS } from '../settings.js';
import { formatDoctor, runDoctor } from './doctor.js';
import { ensureAdmin } from '../auth/bootstrap.js';
import { announceListening, forkWorkers, isClusterWorker } from './cluster.js';
import { CLUSTER_FLAGS, clusterSettingsFrom } from '../store/clickhouse/clusterLayout.js';
import { migrateClickHouse } from '../store/clickhouse/migrate.js';
import { sqliteMigrationPlan } from '../store/sqlite/migrationPlan.js';
import { clickhouseOptions, openStore } from '../store/openStore.js';
import { ensureDashboardBuilt } from './dashboardBuild.js';
import { loadTlsMaterial, type TlsMaterial } from './tls.js';
import { exitOnSignals } from './shutdown.js';

const HELP = `weft — tracing and evaluation for LLM applications

Usage:
  weft serve [--port 8420] [--host 127.0.0.1] [--data-dir ./.weft] [--workers 1|N|auto]
             [--store sqlite|clickhouse --clickhouse-url http://127.0.0.1:8123
              --clickhouse-user default --clickhouse-database weft]
             [--tls [--tls-cert cert.pem --tls-key key.pem]]
             [--threads 1|0] [--read-threads N] [--write-threads N] [--read-budget-ms 30000]
             [--trusted-proxies 10.0.0.0/8,::1] [--public-url https://weft.example.com]
                                       run the service and the dashboard; --tls serves HTTPS with
                                       the given certificate, or a self-signed one kept in the data dir;
                                       requests run in threads (--threads 0: all on the main thread),
                                       a read past --read-budget-ms is stopped (504); with
                                       --store clickhouse requests run in the process (no threads:
                                       ClickHouse queries never block it) and every replica polls
                                       the database for revoked credentials about once a second
  weft user add <name> --entity <e> [--entity <e2>] [--role viewer|annotator|member|admin]
                [--admin] [--password <p>]
                                       create a user (or add entities to one) with a role in them
                                       (default member); the first entity is their default; user
                                       and key commands take --data-dir or --store clickhouse
                                       --clickhouse-url ... like serve
  weft user role <name> <entity>[/<project>] <role|none>
                                       set a user's role in an entity, or override it in one
                                       project; none removes it
  weft user email <name> <email|none>
                                       record the email single sign-on may link <name> by
                                       (WEFT_OIDC_LINK_BY_EMAIL; docs/security/sso.md)
  weft user default-entity <name> <entity>
                                       choose where <name>'s bare project names go
                                       (weave.init("project"))
  weft key create --user <name> [--name <label>]
                                       create an API key; it is printed once
  weft redaction add <entity[/project]> (--key NAME | --pattern BUILTIN_OR_REGEX)
  weft redaction list <entity[/project]>
  weft redaction remove <rule id>       redaction rules, applied at ingest to new data
                                       (docs/security/redaction.md)
  weft demo [--project demo/agents] [--url http://127.0.0.1:8420]
                                       load a realistic demo project
  weft dev                             run the service with the dashboard from Vite (hot reload)
  weft audit verify [--data-dir ./.weft]
                                       check the audit log's hash chain(s); exit status 1 naming
                                       the first broken row
  weft doctor [--store clickhouse ...] print the version, Node, store, schema, database and WAL size,
                                       free disk and changed settings, and warn about what looks
                                       wrong (disk nearly full, a WAL far larger than the database,
                                       replicas' clocks apart, a ClickHouse user without a
                                       password, ...); exit status 1 on any warning
  weft backup <file> [--data-dir ./.weft] [--force]
                                       copy the SQLite database consistently while the server runs;
                                       on ClickHouse: BACKUP to --clickhouse-backup-disk <disk> or an
                                       S3 URL (weft backup --help)
  weft restore <file> [--data-dir ./.weft]
                                       put a backup in place (the server stopped); the old database
                                       is kept aside
  weft retention set <entity[/project]> <days|off> | show <entity[/project]> | sweep
                                       keep calls N days (a project's rule wins over its entity's
                                       default), show the rule in force, or delete expired calls now
  weft migrate [--store clickhouse] [--clickhouse-url http://127.0.0.1:8123] [--clickhouse-database weft]
               [--clickhouse-layout single|replicated|sharded|replicated-sharded]
               [--clickhouse-cluster <name>] [--clickhouse-on-cluster 1|0] [--dry-run]
                                       create or upgrade the ClickHouse schema: an explicit deploy
                                       step, idempotent, under a lock (a second run waits, then finds
                                       nothing to do); on a cluster, for the layout (0: run it per
                                       node). --dry-run prints the statements it would run (SQLite:
                                       those the next start applies) and changes nothing

Settings (environment variables; those with a flag are also \`weft serve --flags\`), all
explained in docs/configuration.md:
${settingsHelp()}`;

/** The settings list of --help, from the settings table, grouped as the docs group them. */
function settingsHelp(): string {
  const groups = [...new Set(SETTINGS.map((s) => s.group))];
  return groups
    .map((group) => {
      const names = SETTINGS.filter((s) => s.group === group).map((s) => (s.flag ? `${s.env} (--${s.flag})` : s.env));
      const lines = [`  ${group}:`];
      for (const name of names) {
        if (lines.at(-1)!.length + name.length > 98) lines.push('   ');
        lines[lines.length - 1] += ` ${name}`;
      }
      return lines.join('\n');
    })
    .join('\n');
}

export async function main(argv: string[]): Promise<void> {
  const [command, sub] = argv;
  try {
    if (!command || command === '--help' || command === '-h' || command === 'help') return void console.log(HELP);
    if (command === 'serve') return await serveCommand(argv.slice(1));
    if (command === 'user' && sub === 'add') return await userAddCommand(argv.slice(2));
    if (command === 'user' && sub === 'default-entity') return await defaultEntityCommand(argv.slice(2));
    if (command === 'user' && sub === 'role') return await userRoleCommand(argv.slice(2));
    if (command === 'user' && sub === 'email') return await userEmailCommand(argv.slice(2));
    if (command === 'key' && sub === 'create') return await keyCreateCommand(argv.slice(2));
    if (command === 'demo') return await (await import('../demo/demoCommand.js')).demoCommand(argv.slice(1));
    if (command === 'migrate') return await migrateCommand(argv.slice(1));
    if (command === 'doctor') return await doctorCommand(argv.slice(1));
    if (command === 'backup') return await (await import('../backup/backupCommands.js')).backupCommand(argv.slice(1));
    if (command === 'restore') return await (await import('../backup/backupCommands.js')).restoreCommand(argv.slice(1));
    if (command === 'redaction') return await (await import('./redactionCommand.js')).redactionCommand(argv.slice(1));
    if (command === 'dev') return await (await import('./devCommand.js')).devCommand(argv.slice(1));
    if (command === 'audit') return await (await import('../audit/auditCommands.js')).auditCommand(argv.slice(1));
    if (command === 'retention') return await (await import('./retentionCommand.js')).retentionCommand(argv.slice(1));
    console.error(`Unknown command "${argv.join(' ')}".\n\n${HELP}`);
    process.exitCode = 2;
  } catch (err) {
    console.error(`weft ${command}: ${(err as Error).message}`);
    process.exitCode = 1;
  }
}

/** Where the data is: every command that opens the store takes these. */
const storeFlags = {
  'data-dir': { type: 'string' },
  store: { type: 'string' },
  'clickhouse-url': { type: 'string' },
  'clickhouse-user': { type: 'string' },
  'clickhouse-database': { type: 'string' },
} as const;

export const serverFlags = {
  port: { type: 'string' },
  host: { type: 'string' },
  ...storeFlags,
  'log-level': { type: 'string' },
  'log-format': { type: 'string' },
  workers: { type: 'string' },
  tls: { type: 'boolean' },
  'tls-cert': { type: 'string' },
  'tls-key': { type: 'string' },
  threads: { type: 'string' },
  'read-threads': { type: 'string' },
  'write-threads': { type: 'string' },
  'read-budget-ms': { type: 'string' },
  'trusted-proxies': { type: 'string' },
  'public-url': { type: 'string' },
  'outbound-allow': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  // The request limits (limits.ts): --max-body-bytes, --max-json-depth, ...
  ...(Object.fromEntries(LIMIT_SPECS.map((l) => [l.flag, { type: 'string' }])) as Record<string, { type: 'string' }>),
} as const;

/** `weft doctor`: warns about unsafe settings; exit status 1 when any check warns. */
async function doctorCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: serverFlags, strict: true });
  if (values.help) return void console.log(HELP);
  const report = await runDoctor(loadConfig(process.env, stringFlags(values)), { flags: stringFlags(values) });
  console.log(formatDoctor(report));
  if (report.findings.some((f) => f.level === 'warn')) process.exitCode = 1;
}

/**
 * `weft migrate`: the ClickHouse schema, as its own deploy step (SQLite migrates itself on open).
 * `--dry-run` prints the statements that would run, for either store, and changes nothing.
 */
async function migrateCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { ...serverFlags, ...CLUSTER_FLAGS, 'dry-run': { type: 'boolean' } }, strict: true });
  if (values.help) return void console.log(HELP);
  const dryRun = values['dry-run'] === true;
  const { 'dry-run': _dry, ...flags } = values;
  const config = loadConfig(process.env, stringFlags(flags));
  if (config.store !== 'clickhouse') {
    if (dryRun) return void console.log(sqliteMigrationPlan(join(config.dataDir, 'weft.sqlite')));
    return void console.log('The SQLite store migrates itself when it opens; weft migrate is for WEFT_STORE=clickhouse.');
  }
  const options = clickhouseOptions(storeConfigOf(config));
  const { from, to, statements } = await migrateClickHouse(options, clusterSettingsFrom(process.env, stringFlags(flags)), {
    dryRun,
    say: (line) => console.error(line),
  });
  if (dryRun) {
    const pending = statements.some((s) => s.startsWith('-- migration'));
    console.log(
      [
        `-- ClickHouse database "${options.database}" is at schema version ${from}; ${pending ? `weft migrate would bring it to ${to} with these statements` : 'nothing to do, these statements only make sure the bookkeeping tables exist'} (dry run: nothing was changed).`,
        ...statements.map((s) => (s.startsWith('--') ? `\n${s}` : `${s};`)),
      ].join('\n'),
    );
    return;
  }
  console.log(
    from === to
      ? `ClickHouse database "${options.database}" is at schema version ${to}; nothing to do.`
      : `ClickHouse database "${options.database}": schema version ${from} -> ${to}.`,
  );
}

async function serveCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: serverFlags, strict: true });
  if (values.help) return void console.log(HELP);
  const config = loadConfig(process.env, { ...stringFlags(values), ...(values.tls ? { tls: '1' } : {}) });
  // Loaded here, not at the top: the other commands (`weft user add`, `weft audit verify`) need
  // the store but not the app, and use ~40% less CPU to start without it.
  const [{ startServer }, { DEFAULT_DIST_DIR }] = await Promise.all([import('./main.js'), import('./dashboard.js')]);
  const dashboardDir = config.serveDashboard ? DEFAULT_DIST_DIR : undefined;
  if (isClusterWorker()) {
    const server = await startServer(config, dashboardDir ? { dashboardDir } : {});
    exitOnSignals(() => server.close(config.shutdownGraceMs), shutdownOptions(config, false));
    return announceListening(server.url);
  }
  const dashboard = config.serveDashboard ? await ensureDashboardBuilt() : null;
  if (config.workers > 1) {
    // Migrate and create the admin once, before the workers open the same file.
    const store = await openStore(storeConfigOf(config));
    const admin = await ensureAdmin(store, config.adminPassword, config.scrypt).finally(() => store.close());
    if (admin.notice) console.error(admin.notice);
    const generated = admin.generated;
    // Make (or renew) the certificate once, so the workers all read the same files.
    const tls = config.tls ? await loadTlsMaterial(config.tls, { dataDir: config.dataDir, host: config.host }) : null;
    const url = await forkWorkers(config.workers, (msg) => console.error(msg), shutdownOptions(config, true).hardLimitMs);
    return printBanner({ url, config, generated, dashboard, tls });
  }
  const server = await startServer(config, dashboardDir ? { dashboardDir } : {});
  exitOnSignals(() => server.close(config.shutdownGraceMs), shutdownOptions(config, true));
  printBanner({ url: server.url, config, generated: server.generatedAdminPassword, dashboard, tls: server.tls });
}

/** The bounds of a graceful stop: the drain, then closing the store (shutdown.ts). */
function shutdownOptions(config: ServerConfig, repeatExits: boolean) {
  return { hardLimitMs: config.shutdownGraceMs + 15_000, repeatExits, log: (msg: string) => console.error(msg) };
}

function printBanner(o: {
  url: string;
  config: ServerConfig;
  generated: string | null;
  dashboard: string | null;
  tls: TlsMaterial | null;
}): void {
  const processes = o.config.workers > 1 ? `, ${o.config.workers} processes` : '';
  const data = o.config.store === 'clickhouse' ? `ClickHouse database "${o.config.clickhouseDatabase}"` : o.config.dataDir;
  console.log(`\nWeft is running at ${o.url}  (data: ${data}, store: ${o.config.store}${processes})`);
  if (o.generated) {
    console.log(`\n  First start: log in as  admin / ${o.generated}`);
    console.log('  This password is shown once. Set WEFT_ADMIN_PASSWORD to choose your own.\n');
  } else {
    console.log('Log in as admin (password from WEFT_ADMIN_PASSWORD or the one printed at first start).');
  }
  console.log(`API docs: ${o.url}/docs    Create an SDK key: npx weft key create --user admin`);
  if (o.dashboard === 'failed') console.log('The dashboard build failed (see above); the API works meanwhile.');
  if (o.tls) console.log(`\n${trustInstructions(o.tls, o.url)}`);
}

/** How to make the SDKs trust the certificate served, with the exact variables each one reads. */
function trustInstructions(tls: TlsMaterial, url: string): string {
  const origin = tls.generated ? `a self-signed certificate kept in ${tls.certFile}` : `the certificate ${tls.certFile}`;
  return [
    `HTTPS with ${origin}`,
    `  (valid for: ${tls.names.join(', ')})`,
    'Clients that do not already trust it must be told to:',
    `  Node / npm weave:  export NODE_EXTRA_CA_CERTS=${tls.certFile}`,
    `  Python weave:      export SSL_CERT_FILE=${tls.certFile} REQUESTS_CA_BUNDLE=${tls.certFile}`,
    `Then point the SDKs here:  export WANDB_BASE_URL=${url} WANDB_API_KEY=<key from npx weft key create>`,
  ].join('\n');
}

async function defaultEntityCommand(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { ...storeFlags, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    return void console.log(`weft user default-entity <name> <entity> [--data-dir ./.weft]

Sets where <name>'s bare project names go: weave.init("project") traces into <entity>/project.
The entity must be one of the user's (any, for an admin). A user's first entity is their default
until changed here or in the dashboard's Settings.`);
  }
  const [username, entity] = positionals;
  if (!username || !entity) throw new Error('usage: weft user default-entity <name> <entity>');
  const config = loadConfig(process.env, stringFlags(values));
  const store = await openStore(storeConfigOf(config));
  try {
    const user = await store.accounts.getUser(username);
    if (!user) throw new Error(`no user "${username}"; create it first: weft user add ${username} --entity ${entity}`);
    if (!user.isAdmin && !user.entities.includes(entity)) {
      throw new Error(`"${username}" does not belong to entity "${entity}"; add it first: weft user add ${username} --entity ${entity}`);
    }
    await store.accounts.setDefaultEntity(username, entity);
    await recordCli(store, {
      action: 'user.changed',
      target: username,
      entity: null,
      projectId: null,
      details: { default_entity: entity },
    });
    console.log(`Default entity of "${username}": ${entity}  (weave.init("project") traces into ${entity}/project)`);
  } finally {
    await store.close();
  }
}

async function userAddCommand(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      entity: { type: 'string', multiple: true },
      role: { type: 'string' },
      admin: { type: 'boolean' },
      password: { type: 'string' },
      ...storeFlags,
    },
  });
  const username = positionals[0];
  const role = values.role === undefined ? undefined : parseRole(values.role, '--role');
  if (!username) throw new Error('name the user: weft user add <name> --entity <entity>');
  if (username === 'api') throw new Error('"api" is reserved for API-key logins; choose another name');
  if (!values.entity?.length && !values.admin) throw new Error('give the user at least one --entity, or --admin');
  for (const entity of values.entity ?? []) {
    if (!NAME_PART_PATTERN.test(entity)) throw new Error(`--entity ${JSON.stringify(entity)}: an entity name must be ${NAME_PART_RULE}`);
  }
  const config = loadConfig(process.env, stringFlags(values));
  const store = await openStore(storeConfigOf(config));
  try {
    const password = values.password ?? process.env.WEFT_USER_PASSWORD ?? null;
    const existed = await store.accounts.getUser(username);
    const user = await store.accounts.upsertUser({
      username,
      entities: values.entity ?? [],
      ...(role ? { role } : {}),
      ...(values.admin ? { isAdmin: true } : {}),
      ...(password ? { passwordHash: await hashSecret(password, config.scrypt) } : {}),
    });
    await recordCli(store, {
      action: existed ? 'user.changed' : 'user.created',
      target: username,
      entity: null,
      projectId: null,
      details: { is_admin: user.isAdmin, entities: user.entities.join(','), password_set: password !== null },
    });
    console.log(
      `User "${user.username}"${user.isAdmin ? ' (admin)' : ''}, entities: ${describeRoles(user)}, default entity: ${defaultEntityOf(user) ?? '(none)'}`,
    );
    if (!user.passwordHash) console.log(`No password set: give one with --password, or use an API key: weft key create --user ${username}`);
  } finally {
    await store.close();
  }
}

async function userRoleCommand(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { ...storeFlags, help: { type: 'boolean', short: 'h' } },
  });
  const [username, scope, roleArg] = positionals;
  if (values.help || !username || !scope || !roleArg) {
    return void console.log(`weft user role <name> <entity>[/<project>] <viewer|annotator|member|admin|none> [--data-dir ./.weft]

Sets <name>'s role in an entity, or overrides it in one project of it; "none" removes the
membership or the override. viewer reads; annotator also answers queues and writes feedback;
member also writes and deletes data and runs jobs; admin also manages the entity's members and
rules (docs/security/roles.md).`);
  }
  const scopeParts = scope.split('/');
  if (scopeParts.length > 2 || !scopeParts.every((p) => NAME_PART_PATTERN.test(p))) {
    throw new Error(`${JSON.stringify(scope)}: give an entity or <entity>/<project>, each ${NAME_PART_RULE}`);
  }
  const role = roleArg === 'none' ? null : parseRole(roleArg, 'the role');
  const config = loadConfig(process.env, stringFlags(values));
  const store = await openStore(storeConfigOf(config));
  try {
    if (!(await store.accounts.setRole(username, scope, role))) {
      throw new Error(`no user "${username}"; create it first: weft user add ${username} --entity ${scopeParts[0]} --role ${roleArg}`);
    }
    await recordCli(store, {
      action: 'role.changed',
      target: username,
      entity: scopeParts[0]!,
      projectId: scopeParts.length === 2 ? scope : null,
      details: { role },
    });
    const user = (await store.accounts.getUser(username))!;
    console.log(`User "${username}": ${describeRoles(user)}`);
  } finally {
    await store.close();
  }
}

/** Records (or removes) the address an administrator vouches for, which single sign-on may link a first sign-in by. */
async function userEmailCommand(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { ...storeFlags, help: { type: 'boolean', short: 'h' } },
  });
  const [username, email] = positionals;
  if (values.help || !username || !email) {
    return void console.log(`weft user email <name> <email|none> [--data-dir ./.weft]

Records <name>'s email address as verified by an administrator. With WEFT_OIDC_LINK_BY_EMAIL=1,
a first single sign-on whose issuer verified the same address signs in as <name> instead of
creating a new user (docs/security/sso.md). "none" removes the address.`);
  }
  if (email !== 'none' && !/^[^\s@]+@[^\s@]+$/.test(email)) throw new Error(`${JSON.stringify(email)} is not an email address`);
  const config = loadConfig(process.env, stringFlags(values));
  const store = await openStore(storeConfigOf(config));
  try {
    if (!(await store.accounts.getUser(username))) throw new Error(`no user "${username}"`);
    if (email === 'none') {
      await store.identities.deleteIdentity(ADMIN_EMAIL_ISSUER, username);
      return void console.log(`User "${username}": no recorded email`);
    }
    const now = Date.now() * 1000;
    await store.identities.upsertIdentity({
      issuer: ADMIN_EMAIL_ISSUER,
      subject: username,
      username,
      email: email.toLowerCase(),
      emailVerified: true,
      createdAt: now,
      lastSignInAt: now,
    });
    console.log(`User "${username}": email ${email.toLowerCase()} (single sign-on links by it when WEFT_OIDC_LINK_BY_EMAIL=1)`);
  } finally {
    await store.close();
  }
}

function parseRole(value: string, what: string): Role {
  if (!(ROLES as readonly string[]).includes(value)) throw new Error(`${what} ${JSON.stringify(value)}: choose one of ${ROLES.join(', ')}`);
  return value as Role;
}

/** "acme (viewer), beta (member); project overrides: acme/support (annotator)". */
function describeRoles(user: UserRecord): string {
  const list = (roles: Record<string, Role>) =>
    Object.entries(roles)
      .map(([scope, role]) => `${scope} (${role})`)
      .join(', ');
  const overrides = list(user.projectRoles);
  return (list(user.roles) || '(none)') + (overrides ? `; project overrides: ${overrides}` : '');
}

async function keyCreateCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { user: { type: 'string' }, name: { type: 'string' }, ...storeFlags } });
  if (!values.user) throw new Error('say whose key it is: weft key create --user <name>');
  const config = loadConfig(process.env, stringFlags(values));
  const store = await openStore(storeConfigOf(config));
  try {
    if (!(await store.accounts.getUser(values.user)))
      throw new Error(`no user "${values.user}"; create it first: weft user add ${values.user} --entity <entity>`);
    const { key, keyId } = await createApiKey(store, values.user, values.name ?? '');
    await recordCli(store, { action: 'key.created', target: keyId, entity: null, projectId: null, details: { owner: values.user } });
    console.log(key);
    console.error(`API key for "${values.user}" (shown once). SDKs send it as HTTP Basic api:<key>, e.g. WANDB_API_KEY=${key}`);
  } finally {
    await store.close();
  }
}

function stringFlags(values: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) if (typeof v === 'string') out[k] = v;
  return out;
}
