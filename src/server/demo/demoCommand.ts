/**
 * `weft demo`: loads a realistic demo project into a running Weft server through the typed
 * client, the way an SDK would, then prints where to look at it: agent traces and
 * conversations, an evaluation run by three models, annotation queues with answers, reactions
 * and notes (seedDemoWorkflows.ts).
 *
 * Credentials: `--api-key`, or `--user` (default admin) with `--password` (default
 * WEFT_ADMIN_PASSWORD). With neither — the usual case right after `npm start` generated the
 * admin password — the demo creates a temporary API key for the user directly in the server's
 * data directory (`--data-dir`, default WEFT_DATA_DIR or ./.weft; the SQLite file is shared
 * safely through WAL and BEGIN IMMEDIATE, as `weft key create` does) and revokes it when done.
 * Everything else still goes over HTTP, so the running server keeps its statistics rollups
 * and thread statistics current as it would for any SDK. Every failure ends in a sentence
 * saying what to do next.
 */
import { parseArgs } from 'node:util';
import { createClient, HttpError, type WeftClient } from '../../client/index.js';
import { createApiKey } from '../auth/apiKeys.js';
import { loadConfig } from '../config.js';
import { openStore } from '../store/openStore.js';
import { generateDemoCalls, type DemoBatchItem } from './generateDemoCalls.js';
import { seedDemoLeaderboard, seedDemoPrompt, seedDemoSavedView } from './seedDemoViews.js';
import { seedDemoAlert } from './seedDemoAlert.js';
import { seedDemoEvaluation, seedDemoReviews } from './seedDemoWorkflows.js';

const HELP = `weft demo — load a realistic demo project into a running Weft server

Usage:
  weft demo [--project demo/agents] [--traces 200] [--seed 1] [--url http://127.0.0.1:8420]
            [--user admin --password <p> | --api-key <key>] [--data-dir ./.weft]

The password defaults to WEFT_ADMIN_PASSWORD. Without a password or key, the demo makes a
temporary API key in the server's data directory (--data-dir, WEFT_DATA_DIR or ./.weft) and
revokes it when done. Start the server first with npm start.`;

/** Items per upsert_batch request: large enough to be quick, small enough to show progress. */
const BATCH_ITEMS = 400;

export async function demoCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      project: { type: 'string', default: 'demo/agents' },
      traces: { type: 'string', default: '200' },
      seed: { type: 'string', default: '1' },
      url: { type: 'string', default: `http://127.0.0.1:${process.env.PORT ?? 8420}` },
      user: { type: 'string', default: 'admin' },
      password: { type: 'string' },
      'api-key': { type: 'string' },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return void console.log(HELP);
  const traces = Number(values.traces);
  const seed = Number(values.seed);
  if (!Number.isInteger(traces) || traces < 1) throw new Error(`--traces must be a positive whole number, not "${values.traces}"`);
  if (!Number.isInteger(seed)) throw new Error(`--seed must be a whole number, not "${values.seed}"`);
  if (!/^[^/\s]+\/[^/\s]+$/.test(values.project)) throw new Error(`--project must look like <entity>/<project>, not "${values.project}"`);
  const url = values.url.replace(/\/+$/, '');

  const auth = await credentials(values);
  try {
    const client = createClient({ baseUrl: url, auth: auth.auth });
    await checkServer(client, url, auth.temporary);
    await loadDemo(client, { projectId: values.project, traces, seed, url });
  } finally {
    await auth.release();
  }
}

async function loadDemo(client: WeftClient, o: { projectId: string; traces: number; seed: number; url: string }): Promise<void> {
  const { count } = await client.callsQueryStats({ project_id: o.projectId });
  // Each run generates fresh ids and times, so a second run adds to the project, not replaces.
  if (count > 0) console.log(`${o.projectId} already has ${count} calls; adding ${o.traces} more traces.`);
  const items = generateDemoCalls({ projectId: o.projectId, traces: o.traces, seed: o.seed });
  const progress = progressPrinter(`Loading demo project ${o.projectId}`);
  await uploadDemoCalls(client, items, progress.update);
  progress.end();
  if (count === 0) {
    console.log('Adding an evaluation run by three models, annotation queues with answers, reactions and notes…');
    const evaluation = await seedDemoEvaluation(client, o.projectId, o.seed);
    await seedDemoReviews(client, o.projectId, o.seed);
    await seedDemoLeaderboard(client, o.projectId, evaluation);
    await seedDemoSavedView(client, o.projectId);
    await seedDemoPrompt(client, o.projectId);
    await seedDemoAlert(client, o.projectId);
  }
  const [entity, project] = o.projectId.split('/') as [string, string];
  const base = `${o.url}/${encodeURIComponent(entity)}/${encodeURIComponent(project)}`;
  console.log(`Done. Open ${base}/calls  (also /threads, /evaluations, /leaderboards, /prompts, /annotation, /dashboards)`);
}

/** Sends the items in order, in batches; reports calls started so far. */
export async function uploadDemoCalls(
  client: WeftClient,
  items: DemoBatchItem[],
  onProgress: (done: number, total: number) => void = () => {},
): Promise<void> {
  const total = items.filter((i) => i.mode === 'start').length;
  let done = 0;
  for (let i = 0; i < items.length; i += BATCH_ITEMS) {
    const batch = items.slice(i, i + BATCH_ITEMS);
    await client.callUpsertBatch({ batch });
    done += batch.filter((item) => item.mode === 'start').length;
    onProgress(done, total);
  }
}

interface DemoAuth {
  auth: { username: string; password: string };
  /** Where the temporary key was made, when it was. */
  temporary: string | null;
  release: () => Promise<void>;
}

/** The credentials the demo uses; a temporary API key from the data directory when none are given. */
async function credentials(values: { user: string; password?: string; 'api-key'?: string; 'data-dir'?: string }): Promise<DemoAuth> {
  const none = async () => {};
  if (values['api-key']) return { auth: { username: 'api', password: values['api-key'] }, temporary: null, release: none };
  const password = values.password ?? process.env.WEFT_ADMIN_PASSWORD;
  if (password) return { auth: { username: values.user, password }, temporary: null, release: none };
  const config = loadConfig(process.env, values['data-dir'] ? { 'data-dir': values['data-dir'] } : {});
  if (config.store !== 'sqlite') {
    throw new Error(`no credentials: pass --password <p> for user "${values.user}" (or set WEFT_ADMIN_PASSWORD), or --api-key <key>`);
  }
  const store = await openStore({ kind: 'sqlite', dataDir: config.dataDir });
  try {
    if (!(await store.accounts.getUser(values.user))) {
      throw new Error(
        `no user "${values.user}" in ${config.dataDir}: start the server first (npm start), point --data-dir at its data directory, or pass --password / --api-key`,
      );
    }
    const { key, keyId } = await createApiKey(store, values.user, 'weft demo (temporary)');
    console.log(`Using a temporary API key for "${values.user}" from ${config.dataDir} (revoked when the demo ends).`);
    return {
      auth: { username: 'api', password: key },
      temporary: config.dataDir,
      release: async () => {
        await store.accounts.revokeApiKey(keyId, Date.now() * 1000);
        await store.close();
      },
    };
  } catch (err) {
    await store.close();
    throw err;
  }
}

async function checkServer(client: WeftClient, url: string, temporaryFrom: string | null): Promise<void> {
  try {
    await client.health({});
  } catch (err) {
    if (err instanceof HttpError) throw new Error(`${url} answered ${err.status} to /health; is it a Weft server?`, { cause: err });
    throw new Error(`cannot reach Weft at ${url}; start it with npm start first (or pass --url)`, { cause: err });
  }
  try {
    await client.whoami({});
  } catch (err) {
    if (err instanceof HttpError && err.status === 401) {
      if (temporaryFrom) {
        throw new Error(
          `${url} did not accept a key made in ${temporaryFrom}: is the server using another data directory? Pass --data-dir, --password or --api-key`,
          { cause: err },
        );
      }
      throw new Error(`${err.message}. Use the admin password printed at first start (or WEFT_ADMIN_PASSWORD), or --api-key`, {
        cause: err,
      });
    }
    throw err;
  }
}

/** One status line, rewritten in place on a terminal; in logs, one line per tenth done. */
function progressPrinter(label: string) {
  let lastTenth = -1;
  return {
    update(done: number, total: number): void {
      const line = `${label}: ${done}/${total} calls`;
      if (process.stdout.isTTY) return void process.stdout.write(`\r${line}`);
      const tenth = Math.floor((done * 10) / total);
      if (tenth !== lastTenth) console.log(line);
      lastTenth = tenth;
    },
    end(): void {
      if (process.stdout.isTTY) process.stdout.write('\n');
    },
  };
}
