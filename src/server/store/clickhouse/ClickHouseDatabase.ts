/**
 * One ClickHouse database reached over HTTP through `@clickhouse/client`, with every setting
 * that changes results sent on each request (server defaults differ between versions:
 * 26.x turns `async_insert` on and leaves 64-bit integers unquoted in JSON, older ones do not;
 * docs/clickhouse.md "Principles"). Values never enter SQL text: `{name:Type}` parameters only.
 */
import { ClickHouseLogLevel, createClient, type ClickHouseClient, type ClickHouseSettings } from '@clickhouse/client';
import { packParams } from './packParams.js';
import type { SmallWritesMode } from './groupCommit.js';
import {
  clickhouseOutageOf,
  clickhouseUnresponsive,
  DEFAULT_CLICKHOUSE_CONNECT_TIMEOUT_MS,
  type StoreUnavailableError,
} from '../storeOutage.js';

export interface ClickHouseOptions {
  url: string;
  username?: string | null;
  password?: string | null;
  database: string;
  /** The wall clock row versions start from, in ms (docs/clickhouse.md "Row versions"); tests skew it. */
  now?: () => number;
  /** WEFT_CLICKHOUSE_CONNECT_TIMEOUT_MS: how long a request waits for a sign of life (see #watch). */
  connectTimeoutMs?: number;
  /**
   * For `weft migrate`: statements may run as long as they need (MIGRATION_SETTINGS), and the
   * client waits for them, however long; the liveness ping (#watch) still gives up on a dead
   * engine. docs/clickhouse.md "Migrations are a deploy step".
   */
  longStatements?: boolean;
  /**
   * WEFT_CLICKHOUSE_QUORUM: whether `consistent` statements carry READ_YOUR_WRITES_SETTINGS.
   * `auto` (the default) turns them on when the database's tables are Replicated
   * (ClickHouseStore.open asks the engine); docs/clickhouse.md "Read-your-writes on a replicated cluster".
   */
  quorum?: QuorumMode;
  /**
   * WEFT_CLICKHOUSE_ON_CLUSTER: whether the one statement a server sends to local tables (the
   * audit sweep's DELETE on a sharded cluster) runs `ON CLUSTER` (default) or on this node only.
   */
  onCluster?: boolean;
  /**
   * How a request's last writes (Store.applyLast: call parts, predictions, scores, feedback)
   * reach the engine: `group` (default) merges concurrent requests' into one INSERT per table
   * (groupCommit.ts), `async` leaves the merging to the engine (async_insert with
   * wait_for_async_insert), `direct` sends each request's own. docs/clickhouse.md "Small writes".
   */
  smallWrites?: SmallWritesMode;
  /** The substring search's background indexer (callSearchIndexer.ts); on unless false (tests of the queue). */
  searchIndexer?: boolean;
  /** Thread statistics kept between requests (threadSnapshots.ts); on unless false. */
  threadSnapshots?: boolean;
  /** For `spool`: the spool file, its flush interval and its durability (spool.ts). */
  spool?: { path: string; flushMs: number; synchronous?: 'normal' | 'full' };
}

export type QuorumMode = 'auto' | 'on' | 'off';

/**
 * What the `async` way of small writes adds to its inserts: the engine buffers them and writes
 * one part for many, and answers each only once that part is written (acknowledged still
 * means stored). Only the writer of Store.applyLast sends these: consensus and accounts rely
 * on synchronous inserts.
 */
export const ASYNC_INSERT_SETTINGS: ClickHouseSettings = { async_insert: 1, wait_for_async_insert: 1 };

/** The settings Weft's answers depend on, pinned per request. */
export const RESULT_SETTINGS: ClickHouseSettings = {
  // JSON `null` into a non-Nullable column is an error, not a silent '' or 0.
  input_format_null_as_default: 0,
  // Int64/UInt64 arrive as strings and are converted where read, so nothing above 2^53 is rounded.
  output_format_json_quote_64bit_integers: 1,
  // An insert has landed (and is visible to the next read on any replica's connection) when it answers.
  async_insert: 0,
  insert_deduplicate: 1,
  // The rows materialized views derive from an insert into calls (migrations/v19CallViews.ts)
  // are part of its answer: a failure in a view fails the insert, so the client retries, and
  // the retry reaches the views even when the engine drops the calls block as a duplicate
  // (docs/clickhouse.md "Writes that fail half-way").
  materialized_views_ignore_errors: 0,
  deduplicate_blocks_in_dependent_materialized_views: 1,
  join_use_nulls: 1,
  // Time is epoch microseconds in Int64 columns; no DateTime parsing or time zone takes part.
  session_timezone: 'UTC',
  // FINAL reads must merge across partitions as well.
  do_not_merge_across_partitions_select_final: 0,
  mutations_sync: '2',
  // On a sharded cluster (clusterLayout.ts) the tables Weft names are Distributed tables. An
  // insert answers once its rows are on their shards (not queued on the node that took it), and
  // a subquery or JOIN over another Distributed table runs once on the node that took the query
  // and is shipped to the shards (GLOBAL IN / GLOBAL JOIN), which is right whatever the two
  // tables' shard keys (calls are sharded by call, the rest by project). No effect on one server.
  distributed_foreground_insert: 1,
  distributed_product_mode: 'global',
  // A query stops on the server before the client gives up on it (request_timeout below), so a
  // slow read ends as ClickHouse's TIMEOUT_EXCEEDED, never as a dropped socket.
  max_execution_time: 50,
  // A long but valid `$expr` (up to WEFT_MAX_QUERY_OPERANDS items of a `$and`) prints to more
  // than the default 256 KiB of SQL text; the request limits, not this, bound a query.
  max_query_size: String(16 * 1024 * 1024),
};

/**
 * What `weft migrate` sends on top of RESULT_SETTINGS: no execution-time limit, since a DDL's
 * mutation or a backfill over every call runs for minutes at tens of millions of calls (about
 * 4 s per million), and a limit would fail it the same way on every rerun; and distributed DDL
 * (ON CLUSTER) waits for every node however long it takes (-1), instead of failing after 180 s
 * while the nodes carry on.
 */
export const MIGRATION_SETTINGS: ClickHouseSettings = {
  max_execution_time: 0,
  distributed_ddl_task_timeout: '-1',
};

/**
 * What a statement that must read its own writes carries on a replicated cluster: an insert
 * answers once a majority of the shard's replicas hold it, one quorum insert at a time per
 * table (`insert_quorum_parallel=0`, without which `select_sequential_consistency` promises
 * nothing), and a read refuses to answer from a replica that lacks a quorum-written part
 * (REPLICA_IS_NOT_IN_QUORUM) instead of answering stale. A lost replica fails a quorum insert
 * after at most `insert_quorum_timeout`. Ignored by non-replicated tables.
 * docs/clickhouse.md "Read-your-writes on a replicated cluster".
 */
export const READ_YOUR_WRITES_SETTINGS: ClickHouseSettings = {
  insert_quorum: 'auto',
  insert_quorum_parallel: 0,
  insert_quorum_timeout: 10_000,
  select_sequential_consistency: '1',
};

/**
 * Errors of a `consistent` statement worth another try, after a short wait: another quorum
 * insert into the table is still replicating (one at a time), a replica still fetching a
 * quorum-written part, and a quorum whose status was lost with a replica (the insert landed
 * on this one; its retry is deduplicated).
 */
const QUORUM_RETRY = new Set(['UNSATISFIED_QUORUM_FOR_PREVIOUS_WRITE', 'REPLICA_IS_NOT_IN_QUORUM', 'UNKNOWN_STATUS_OF_INSERT']);
const QUORUM_RETRY_WAITS_MS = [20, 50, 100, 200, 400, 800];

export type Params = Record<string, unknown>;

/** What a database and its `consistent` sibling share: one connection, one clock, one quorum switch. */
interface Shared {
  client: ClickHouseClient;
  versions: VersionClock;
  url: string;
  connectTimeoutMs: number;
  pingUrl: string;
  base: ClickHouseSettings;
  quorum: boolean;
  /** Quorum inserts that found too few live replicas and went without (docs say when). */
  quorumFallbacks: number;
}

export class ClickHouseDatabase {
  readonly client: ClickHouseClient;
  readonly database: string;
  /** This store's version clock: every ReplacingMergeTree version it writes comes from here. */
  readonly versions: VersionClock;
  /** WEFT_CLICKHOUSE_ON_CLUSTER (ClickHouseOptions.onCluster). */
  readonly onCluster: boolean;

  readonly #shared: Shared;
  /** True for the `consistent` sibling: its statements carry READ_YOUR_WRITES_SETTINGS when quorum is on. */
  readonly #strict: boolean;
  #sibling: ClickHouseDatabase | null = null;
  #ping: Promise<boolean> | null = null;
  /**
   * Awaited before each statement: the small-writes spool's barrier, so a statement of this
   * server follows every write it acknowledged (docs/clickhouse.md "Small writes").
   */
  barrier: (() => Promise<void> | undefined) | null = null;

  /**
   * `from` is for `consistent` alone: the database whose connection the sibling shares.
   * `versions` and `settings`: a second connection of the same store (the async small writer).
   */
  constructor(
    options: ClickHouseOptions,
    {
      from,
      strict = true,
      versions,
      settings,
    }: { from?: ClickHouseDatabase; strict?: boolean; versions?: VersionClock; settings?: ClickHouseSettings } = {},
  ) {
    this.database = options.database;
    this.onCluster = from ? from.onCluster : (options.onCluster ?? true);
    if (from) {
      this.#shared = from.#shared;
      this.#strict = strict;
    } else {
      const base = { ...RESULT_SETTINGS, ...(options.longStatements ? MIGRATION_SETTINGS : {}), ...settings };
      this.#strict = false;
      this.#shared = {
        versions: versions ?? new VersionClock(options.now),
        url: options.url,
        connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CLICKHOUSE_CONNECT_TIMEOUT_MS,
        pingUrl: pingUrl(options.url),
        base,
        quorum: options.quorum === 'on',
        quorumFallbacks: 0,
        client: createClient({
          url: options.url,
          username: options.username ?? 'default',
          password: options.password ?? '',
          database: options.database,
          clickhouse_settings: base,
          // 60 s at most: above it @clickhouse/client warns on every start about idle proxies. For
          // migrations none (0: the socket never times out while the server works on a statement);
          // #watch still aborts when the engine stops answering its ping.
          request_timeout: options.longStatements ? 0 : 60_000,
          // Every failure reaches the caller, which answers and logs it once (a 503 for an outage).
          log: { level: ClickHouseLogLevel.OFF },
        }),
      };
    }
    this.client = this.#shared.client;
    this.versions = this.#shared.versions;
  }

  /**
   * The same connection, its statements sent with READ_YOUR_WRITES_SETTINGS when quorum is on:
   * what accounts, keys, sessions, jobs, consensus slots and the v2 evaluation API read and
   * write through (docs/clickhouse.md "Read-your-writes on a replicated cluster"). On one
   * server or a cluster without replicas it sends exactly what this database sends.
   */
  get consistent(): ClickHouseDatabase {
    if (this.#strict) return this;
    this.#sibling ??= new ClickHouseDatabase({ url: this.#shared.url, database: this.database }, { from: this });
    return this.#sibling;
  }

  /**
   * This database on the same connection with a barrier of its own (`strict`: like `consistent`):
   * with the small-writes spool, the stores that read nothing it holds, or may lag it, skip it.
   */
  copy(strict = this.#strict): ClickHouseDatabase {
    return new ClickHouseDatabase({ url: this.#shared.url, database: this.database }, { from: this, strict });
  }

  /** Whether `consistent` statements carry the quorum settings (WEFT_CLICKHOUSE_QUORUM, or detected). */
  get quorum(): boolean {
    return this.#shared.quorum;
  }

  set quorum(on: boolean) {
    this.#shared.quorum = on;
  }

  /**
   * Whether this database's tables are Replicated (the `replicated` and `replicated-sharded`
   * layouts that `weft migrate` wrote): what WEFT_CLICKHOUSE_QUORUM=auto goes by.
   */
  async hasReplicatedTables(): Promise<boolean> {
    const row = await this.get<{ n: string }>(
      "SELECT count() AS n FROM system.tables WHERE database = currentDatabase() AND engine LIKE 'Replicated%'",
    );
    return num(row?.n ?? 0) > 0;
  }

  /** Quorum inserts that went without their quorum since start (too few live replicas). */
  get quorumFallbacks(): number {
    return this.#shared.quorumFallbacks;
  }

  /** The settings of this database's statements now. */
  get settings(): ClickHouseSettings {
    return this.#strict && this.#shared.quorum ? { ...this.#shared.base, ...READ_YOUR_WRITES_SETTINGS } : this.#shared.base;
  }

  /** Rows of a SELECT as objects (JSONEachRow). */
  async all<T>(query: string, params: Params = {}): Promise<T[]> {
    await this.barrier?.();
    return this.#watched(async (abort_signal, clickhouse_settings) => {
      const rs = await this.client.query({ ...statement(query, params), format: 'JSONEachRow', clickhouse_settings, abort_signal });
      const release = closeOnAbort(rs, abort_signal);
      try {
        return await rs.json<T>();
      } finally {
        release();
      }
    });
  }

  /** The first row, or null. */
  async get<T>(query: string, params: Params = {}): Promise<T | null> {
    return (await this.all<T>(query, params))[0] ?? null;
  }

  /** Rows one by one, without holding the result in memory. */
  async *stream<T>(query: string, params: Params = {}): AsyncIterable<T> {
    await this.barrier?.();
    const watch = this.#watch();
    try {
      // Retried (a replica catching up) only until the answer starts: rows are never sent twice.
      const rs = await this.#quorumRetries(this.settings, (clickhouse_settings) =>
        this.client.query({ ...statement(query, params), format: 'JSONEachRow', clickhouse_settings, abort_signal: watch.signal }),
      );
      const release = closeOnAbort(rs, watch.signal);
      try {
        for await (const rows of rs.stream<T>()) {
          for (const row of rows) yield row.json();
        }
      } finally {
        release();
      }
    } catch (err) {
      throw watch.gaveUp() ?? this.#outage(err);
    } finally {
      watch.stop();
    }
  }

  /** A statement without a result (DDL, DELETE, INSERT ... SELECT). */
  async command(query: string, params: Params = {}): Promise<void> {
    await this.barrier?.();
    await this.#watched((abort_signal, clickhouse_settings) =>
      this.client.command({ ...statement(query, params), clickhouse_settings, abort_signal }),
    );
  }

  /**
   * Inserts rows as one block: one part, applied all or nothing. `columns` names the columns
   * sent when they include an EPHEMERAL one (which an insert without a column list ignores).
   */
  async insert(table: string, rows: object[], columns?: [string, ...string[]], extra: ClickHouseSettings = {}): Promise<void> {
    if (rows.length === 0) return;
    await this.barrier?.();
    await this.#watched(
      (abort_signal, settings) =>
        this.client.insert({ table, values: rows, format: 'JSONEachRow', columns, clickhouse_settings: settings, abort_signal }),
      extra,
    );
  }

  /** Runs one request under #watch; any failure to reach the server becomes a 503 saying so. */
  async #watched<T>(run: (signal: AbortSignal, settings: ClickHouseSettings) => Promise<T>, extra: ClickHouseSettings = {}): Promise<T> {
    const watch = this.#watch();
    try {
      return await this.#quorumRetries({ ...this.settings, ...extra }, (settings) => run(watch.signal, settings));
    } catch (err) {
      throw watch.gaveUp() ?? this.#outage(err);
    } finally {
      watch.stop();
    }
  }

  /**
   * A `consistent` statement on a replicated cluster, tried again while the cluster is busy
   * making it consistent (QUORUM_RETRY), and once without its quorum when too few replicas are
   * alive to reach one (TOO_FEW_LIVE_REPLICAS: a shard of two replicas that lost one): the
   * survivor then serves every read and write of its shard, so a write still reads back, and
   * the job consensus, decided by deduplication in Keeper, still decides each slot once.
   * docs/clickhouse.md "Read-your-writes on a replicated cluster" says what that costs.
   */
  async #quorumRetries<T>(settings: ClickHouseSettings, run: (settings: ClickHouseSettings) => Promise<T>): Promise<T> {
    if (!this.#strict || !this.#shared.quorum) return run(settings);
    let current = settings;
    for (let attempt = 0; ; attempt++) {
      try {
        return await run(current);
      } catch (err) {
        const type = (err as { type?: unknown }).type;
        if (type === 'TOO_FEW_LIVE_REPLICAS' && current.insert_quorum !== '0') {
          this.#shared.quorumFallbacks++;
          current = { ...current, insert_quorum: '0' };
          continue;
        }
        const wait = QUORUM_RETRY_WAITS_MS[attempt];
        if (typeof type !== 'string' || !QUORUM_RETRY.has(type) || wait === undefined) throw err;
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }

  /**
   * A frozen engine (stopped by a signal, wedged, or a host that swallows packets) accepts
   * connections and never answers, and @clickhouse/client would wait out its 60 s socket
   * timeout. So while a request is unanswered, every connect timeout the engine is pinged on a
   * connection of its own: a slow query on a live engine runs on (up to max_execution_time),
   * but when the ping gets no answer either, the request is aborted as a 503
   * (docs/operations/shutdown-and-readiness.md).
   */
  #watch(): { signal: AbortSignal; gaveUp(): StoreUnavailableError | null; stop(): void } {
    const controller = new AbortController();
    let stopped = false;
    let gaveUp: StoreUnavailableError | null = null;
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      timer = setTimeout(() => {
        void this.#alive().then((alive) => {
          if (stopped) return;
          if (alive) return arm();
          gaveUp = clickhouseUnresponsive(this.#shared.url, this.#shared.connectTimeoutMs);
          controller.abort(gaveUp);
        });
      }, this.#shared.connectTimeoutMs);
      timer.unref();
    };
    arm();
    return {
      signal: controller.signal,
      gaveUp: () => gaveUp,
      stop: () => {
        stopped = true;
        clearTimeout(timer);
      },
    };
  }

  /**
   * Whether the server answers `/ping` within the connect timeout, on a connection outside the
   * client's pool (whose sockets may all be held by stuck requests). One ping at a time is shared.
   */
  #alive(): Promise<boolean> {
    this.#ping ??= fetch(this.#shared.pingUrl, { signal: AbortSignal.timeout(this.#shared.connectTimeoutMs) })
      .then(async (res) => {
        await res.arrayBuffer();
        // Any answer of the server's is a sign of life; a proxy's 502/503/504 is not.
        return ![502, 503, 504].includes(res.status);
      })
      .catch(() => false)
      .finally(() => {
        this.#ping = null;
      });
    return this.#ping;
  }

  /**
   * The version for a rewrite of the rows of `table` that `where` selects: above every version
   * stored for them (read from all parts, merged or not) and above this store's clock, so a
   * change made after another one was acknowledged outranks it whatever the two writers' clocks
   * say. A final change's FINAL_VERSION_OFFSET is left out of the floor, so a later ordinary
   * rewrite still ranks below it. docs/clickhouse.md "Row versions".
   */
  async versionAfter(table: string, where: string, params: Params = {}): Promise<number> {
    const row = await this.get<{ v: string | null }>(
      `SELECT max(version % ${FINAL_VERSION_OFFSET}) AS v FROM ${table} WHERE ${where}`,
      params,
    );
    return this.versions.next(num(row?.v ?? 0));
  }

  /** A failure to reach the server as a 503 saying so (store/storeOutage.ts); any other error as it is. */
  #outage(err: unknown): unknown {
    return clickhouseOutageOf(err, this.#shared.url) ?? err;
  }

  /** Closes the connection (the `consistent` sibling's too: they share it). */
  async close(): Promise<void> {
    await this.client.close();
  }
}

/**
 * Closes an answer whose rows are still coming when `signal` aborts: @clickhouse/client stops
 * listening to the signal once the answer's headers are in, so an engine frozen after that would
 * hold the rows until the socket's 60 s timeout. Answers the listener's removal.
 */
function closeOnAbort(rs: { close(): void }, signal: AbortSignal): () => void {
  const close = () => rs.close();
  if (signal.aborted) close();
  signal.addEventListener('abort', close, { once: true });
  return () => signal.removeEventListener('abort', close);
}

/** The server's `/ping` beside `url` (behind a path prefix too), without credentials (fetch refuses them in URLs). */
function pingUrl(url: string): string {
  const u = new URL(url);
  u.username = '';
  u.password = '';
  u.search = '';
  u.pathname = `${u.pathname.replace(/\/+$/, '')}/ping`;
  return u.href;
}

/** A statement as sent: many parameters packed into a few (packParams.ts says why). */
function statement(query: string, params: Params): { query: string; query_params: Params } {
  const packed = packParams(query, params);
  return { query: packed.query, query_params: packed.params };
}

/** Int64/UInt64 columns arrive quoted; this reads them (and nulls) as numbers. */
export const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v));
export const numOrNull = (v: unknown): number | null => (v == null ? null : num(v));

/**
 * Added to the version of a final change (an ended session, a revoked key), so it outranks every
 * ordinary rewrite of the same row (accounts.ts says why). 2^52 keeps versions exact as
 * JavaScript numbers (below 2^53) until the clock in µs itself passes 2^52, in the year 2112.
 */
export const FINAL_VERSION_OFFSET = 2 ** 52;

/**
 * A hybrid logical clock for ReplacingMergeTree versions: the wall clock in µs, but never at or
 * below a version this store gave before or a stored version it was shown (`next(floor)`). Clocks
 * of replicas minutes apart then still order a change after the change it followed.
 */
export class VersionClock {
  #last = 0;
  readonly #now: () => number;
  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** A version above `floor`, above every version this clock gave, and at least the wall clock. */
  next(floor = 0): number {
    this.#last = Math.max(Math.floor(this.#now() * 1000), this.#last + 1, floor + 1);
    return this.#last;
  }
}
