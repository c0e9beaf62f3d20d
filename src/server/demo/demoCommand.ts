/**
 * `weft demo`: loads a realistic demo project into a running Weft server through the typed
 * client, the way an SDK would, then prints where to look at it.
 *
 * Credentials: `--api-key`, or `--user` (default admin) with `--password` (default
 * WEFT_ADMIN_PASSWORD). Every failure ends in a sentence saying what to do next.
 */
import { parseArgs } from 'node:util';
import { createClient, HttpError, type WeftClient } from '../../client/index.js';
import { generateDemoCalls, type DemoBatchItem } from './generateDemoCalls.js';

const HELP = `weft demo — load a realistic demo project into a running Weft server

Usage:
  weft demo [--project demo/agents] [--traces 200] [--seed 1] [--url http://127.0.0.1:8420]
            [--user admin --password <p> | --api-key <key>]

The password defaults to WEFT_ADMIN_PASSWORD. Start the server first with npm start.`;

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

  const client = createClient({ baseUrl: url, auth: credentials(values) });
  await checkServer(client, url);
  const { count } = await client.callsQueryStats({ project_id: values.project });
  // Each run generates fresh ids and times, so a second run adds to the project, not replaces.
  if (count > 0) console.log(`${values.project} already has ${count} calls; adding ${traces} more traces.`);
  const items = generateDemoCalls({ projectId: values.project, traces, seed });
  const progress = progressPrinter(`Loading demo project ${values.project}`);
  await uploadDemoCalls(client, items, progress.update);
  progress.end();
  const [entity, project] = values.project.split('/') as [string, string];
  console.log(`Done. Open ${url}/${encodeURIComponent(entity)}/${encodeURIComponent(project)}/calls`);
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

function credentials(values: { user: string; password?: string; 'api-key'?: string }) {
  if (values['api-key']) return { username: 'api', password: values['api-key'] };
  const password = values.password ?? process.env.WEFT_ADMIN_PASSWORD;
  if (!password) {
    throw new Error(
      `no credentials: pass --password <p> for user "${values.user}" (or set WEFT_ADMIN_PASSWORD), or --api-key <key> from \`npx weft key create --user ${values.user}\``,
    );
  }
  return { username: values.user, password };
}

async function checkServer(client: WeftClient, url: string): Promise<void> {
  try {
    await client.health({});
  } catch (err) {
    if (err instanceof HttpError) throw new Error(`${url} answered ${err.status} to /health; is it a Weft server?`);
    throw new Error(`cannot reach Weft at ${url}; start it with npm start first (or pass --url)`);
  }
  try {
    await client.whoami({});
  } catch (err) {
    if (err instanceof HttpError && err.status === 401) {
      throw new Error(`${err.message}. Use the admin password printed at first start (or WEFT_ADMIN_PASSWORD), or --api-key`);
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
