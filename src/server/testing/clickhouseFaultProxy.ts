/**
 * An HTTP proxy in front of a real ClickHouse engine that fails one chosen INSERT (or every one
 * into a table), for tests of what a write failing half-way leaves behind (docs/clickhouse.md
 * "Writes that fail half-way") and of what group commits answer; it counts INSERTs by table.
 * Everything else passes through unchanged, and every statement is recorded with the settings
 * it was sent with (what a test of per-statement settings reads). Two ways to fail:
 *
 * - `refused`: the INSERT never reaches the engine and the client gets an error;
 * - `lost`: the engine applies it, then the connection drops before the answer (a crash or
 *   network cut after the commit), so the client gets an error for a write that landed.
 *
 * It can also hold one INSERT's answer after the engine applied it (`holdInsert`), so a test
 * reads while the writer is stopped between two statements: an ordering injected, not slept for.
 */
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FaultMode = 'refused' | 'lost';

export interface FaultProxy {
  url: string;
  /** Fails the `n`th INSERT from now (1 = the next one; 0 = none); one fault at a time. */
  failInsert(n: number, mode: FaultMode): void;
  /** The table of the INSERT that was failed since the last failInsert, or null while none was. */
  failed(): string | null;
  /** Fails every INSERT into `table` from now until called with null (besides failInsert's one). */
  failEvery(table: string | null, mode: FaultMode): void;
  /**
   * Holds the answer of the `n`th INSERT from now (1 = the next one) once the engine has applied
   * it, until `release()`: resolves with its table then. One hold at a time.
   */
  holdInsert(n: number): Promise<string>;
  /** Sends the held answer on (and forgets a hold not reached yet). */
  release(): void;
  /** INSERTs that reached the proxy so far, by table (failed ones included). */
  inserts(): Record<string, number>;
  /** Every statement since the last `clearStatements()`: its SQL and the settings in its URL. */
  statements(): RecordedStatement[];
  clearStatements(): void;
  close(): Promise<void>;
}

export interface RecordedStatement {
  sql: string;
  settings: Record<string, string>;
}

/** URL parameters that are not settings. */
const NOT_SETTINGS = /^(query|query_id|database|default_format|session_id|param_.*)$/;

const INSERT = /^\s*INSERT\s+INTO\s+([\w.`"]+)/i;

/** The INSERT's table, or null for any other statement (the query is in the URL or leads the body). */
function insertTable(url: string, body: Buffer): string | null {
  const query = new URL(url, 'http://proxy').searchParams.get('query') ?? body.subarray(0, 256).toString('utf8');
  return INSERT.exec(query)?.[1] ?? null;
}

export async function startClickHouseFaultProxy(upstream: string): Promise<FaultProxy> {
  const target = new URL(upstream);
  let plan: { left: number; mode: FaultMode } | null = null;
  let failed: string | null = null;
  let every: { table: string; mode: FaultMode } | null = null;
  const counts: Record<string, number> = {};
  let recorded: RecordedStatement[] = [];
  let hold: { left: number; reached: (table: string) => void } | null = null;
  let held: (() => void) | null = null;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const table = insertTable(req.url ?? '/', body);
      const params = new URL(req.url ?? '/', 'http://proxy').searchParams;
      if (req.method === 'POST') {
        const settings = Object.fromEntries([...params].filter(([k]) => !NOT_SETTINGS.test(k)));
        recorded.push({ sql: params.get('query') ?? body.subarray(0, 8192).toString('utf8'), settings });
      }
      let fault: FaultMode | null = null;
      let holding: ((table: string) => void) | null = null;
      if (table) counts[table] = (counts[table] ?? 0) + 1;
      if (table && hold && --hold.left === 0) {
        holding = hold.reached;
        hold = null;
      }
      if (table && every && table === every.table) fault = every.mode;
      else if (table && plan && --plan.left === 0) {
        fault = plan.mode;
        failed = table;
        plan = null;
      }
      if (fault === 'refused') {
        res.writeHead(500, { 'X-ClickHouse-Exception-Code': '1001' });
        res.end(`Code: 1001. DB::Exception: injected failure of INSERT INTO ${table} (fault proxy). (STD_EXCEPTION)`);
        return;
      }
      const headers: IncomingHttpHeaders = { ...req.headers, host: target.host };
      const up = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (answer) => {
        if (fault === 'lost') {
          // Applied on the engine; the client never hears so.
          answer.resume();
          answer.on('end', () => res.socket?.destroy());
          return;
        }
        if (!holding) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        const reached = holding;
        // Applied once the engine's whole answer is in; passed on only at release().
        const body: Buffer[] = [];
        answer.on('data', (c: Buffer) => body.push(c));
        answer.on('end', () => {
          held = () => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(Buffer.concat(body));
          };
          reached(table!);
        });
      });
      up.on('error', () => res.socket?.destroy());
      up.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    failInsert(n, mode) {
      plan = n > 0 ? { left: n, mode } : null;
      failed = null;
    },
    failed: () => failed,
    failEvery(table, mode) {
      every = table ? { table, mode } : null;
    },
    holdInsert: (n) =>
      new Promise<string>((reached) => {
        hold = { left: n, reached };
      }),
    release() {
      hold = null;
      const send = held;
      held = null;
      send?.();
    },
    inserts: () => ({ ...counts }),
    statements: () => recorded,
    clearStatements: () => {
      recorded = [];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
