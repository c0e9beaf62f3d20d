/**
 * The official `weave` npm SDK pointed at a test server as alice, for the SDK compatibility
 * tests. It reads its server and key from the environment and calls global fetch, so both are
 * set here and put back by `stop()`.
 */
import * as weave from 'weave';
import type { TestServer } from './testServer.js';

export type SdkClient = Awaited<ReturnType<typeof weave.init>>;

/** One request the SDK made to the test server, with Weft's answer (unchanged). */
export interface SdkExchange {
  method: string;
  url: URL;
  res: Response;
}

const ENV = ['WF_TRACE_SERVER_URL', 'WANDB_API_KEY', 'WEAVE_PRINT_CALL_LINK'];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `weave.init(project)` against `t` as alice; `onExchange` sees every request the SDK makes to `t`. */
export async function initWeaveSdk(req: {
  server: TestServer;
  project: string;
  onExchange: (e: SdkExchange) => void;
}): Promise<{ sdk: SdkClient; stop(): void }> {
  const realFetch = globalThis.fetch;
  const savedEnv = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
  process.env.WF_TRACE_SERVER_URL = req.server.url;
  process.env.WANDB_API_KEY = req.server.alice.apiKey;
  process.env.WEAVE_PRINT_CALL_LINK = 'false';
  globalThis.fetch = async function recordingFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const res = await realFetch(input, init);
    if (url.href.startsWith(req.server.url))
      req.onExchange({ method: init?.method ?? (input instanceof Request ? input.method : 'GET'), url, res });
    return res;
  } as typeof fetch;
  const sdk = await weave.init(req.project, { printCallLink: false });
  return {
    sdk,
    stop: () => {
      // Never leave the SDK retrying in the background of the next test file.
      const internals = sdk as unknown as { callQueue?: unknown[]; batchProcessTimeout?: ReturnType<typeof setTimeout> | null };
      internals.callQueue?.splice(0);
      if (internals.batchProcessTimeout) clearTimeout(internals.batchProcessTimeout);
      globalThis.fetch = realFetch;
      for (const [k, v] of Object.entries(savedEnv)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    },
  };
}

/** Waits for the SDK to send its queued batches; fails after 10 s, with `detail()` in the message. */
export async function waitForSdkBatches(sdk: SdkClient, detail: () => string): Promise<void> {
  await Promise.race([
    sdk.waitForBatchProcessing(),
    sleep(10_000).then(() => {
      throw new Error(`SDK batches not sent within 10 s; ${detail()}`);
    }),
  ]);
}
