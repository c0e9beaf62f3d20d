/**
 * The rules in force per project, cached in each process (and request thread), because ingest
 * asks for them on every write (docs/security/redaction.md "Caching").
 *
 * A cache is dropped at once where a rule changed (`forget`), and elsewhere when the store's
 * rules epoch moved (RedactionStore.epoch): on SQLite the epoch is read on every lookup (one
 * point read on the thread's own connection, a few µs), so every thread and `--workers` process
 * applies a change from the next write on; on ClickHouse, where a read is a round trip, at most
 * once per EPOCH_RECHECK_MS, so another replica applies a change within that time.
 */
import { Redaction } from '../../../contract/redaction.js';
import type { RedactionRuleRecord } from '../../store/RedactionStore.js';
import type { Store } from '../../store/Store.js';

export const EPOCH_RECHECK_MS = 1000;
/** Projects remembered per process before the cache starts again (rules are small; this bounds memory). */
const MAX_PROJECTS = 10_000;

/** The scopes whose rules apply to a project: its entity's, then its own. */
export const scopesOf = (projectId: string): [string, string] => [projectId.split('/')[0]!, projectId];

export class RuleCache {
  readonly #store: Store;
  readonly #recheckMs: number;
  readonly #now: () => number;
  #entries = new Map<string, Promise<Redaction | null>>();
  #epoch: number | null = null;
  #checkedAt = -Infinity;

  constructor(store: Store, options: { recheckMs?: number; now?: () => number } = {}) {
    this.#store = store;
    this.#recheckMs = options.recheckMs ?? (store.backend === 'sqlite' ? 0 : EPOCH_RECHECK_MS);
    this.#now = options.now ?? Date.now;
  }

  /** The project's rules ready to apply, or null when it has none. */
  async forProject(projectId: string): Promise<Redaction | null> {
    await this.#checkEpoch();
    let entry = this.#entries.get(projectId);
    if (!entry) {
      if (this.#entries.size >= MAX_PROJECTS) this.#entries.clear();
      entry = this.#store.redaction.listRules(scopesOf(projectId)).then(compile);
      this.#entries.set(projectId, entry);
      // A failed read is not remembered: the next write asks again.
      entry.catch(() => this.#entries.delete(projectId));
    }
    return entry;
  }

  /** Drops every cached project (a rule changed here). */
  forget(): void {
    this.#entries = new Map();
    this.#checkedAt = -Infinity;
  }

  async #checkEpoch(): Promise<void> {
    const now = this.#now();
    if (now - this.#checkedAt < this.#recheckMs) return;
    this.#checkedAt = now;
    const epoch = await this.#store.redaction.epoch();
    if (epoch !== this.#epoch) {
      this.#epoch = epoch;
      this.#entries = new Map();
    }
  }
}

const compile = (rules: RedactionRuleRecord[]): Redaction | null => (rules.length ? new Redaction(rules) : null);

// One cache per store a process or thread opened, keyed by its redaction part: a request thread
// hands each request its own store object, but they share that part (threads/storeForwarding.ts).
const caches = new WeakMap<object, RuleCache>();

export function ruleCacheOf(store: Store): RuleCache {
  let cache = caches.get(store.redaction);
  if (!cache) caches.set(store.redaction, (cache = new RuleCache(store)));
  return cache;
}
