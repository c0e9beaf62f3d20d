/**
 * The audit log's write side: one entry per security- or data-relevant action, appended and
 * never changed (docs/security/audit.md). Handlers record through `ctx.audit`.
 */
import { userInfo } from 'node:os';
import type { AuthUser } from '../auth/authenticate.js';
import { nowMicros } from '../core/datetime.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../logger.js';
import type { Store } from '../store/Store.js';

export const AUDIT_ACTIONS = [
  'auth.sign_in',
  'auth.sign_in_failed',
  'auth.sign_out',
  'auth.session_ended',
  'key.created',
  'key.revoked',
  'user.created',
  'user.changed',
  'user.disabled',
  'role.changed',
  'password.set',
  'project.created',
  'entity.created',
  'retention.changed',
  'redaction.changed',
  'calls.deleted',
  'objects.deleted',
  'feedback.deleted',
  'queue.deleted',
  'data.exported',
  'file.downloaded',
  'provider.changed',
  'alert.changed',
  'job.started',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who acted: a user (through a password, session or key) or the server itself. */
export interface AuditActor {
  username: string | null;
  keyId: string | null;
  /** `system` for the server's own work (retention sweeps, jobs). */
  via: AuthUser['via'] | 'system' | 'oidc' | 'cli';
}

export interface AuditEntry {
  actor: AuditActor;
  /** Client address; '' for the server's own work. */
  address: string;
  action: AuditAction;
  /** What was acted on: a username, key id, `<entity>/<project>`, queue id, … */
  target: string;
  /** The entity and project the action belongs to (entity admins see their entity's rows). */
  entity: string | null;
  projectId: string | null;
  outcome: 'success' | 'failure' | 'denied';
  /** Counts and names, never contents or secrets. */
  details?: Record<string, string | number | boolean | null>;
}

export interface AuditTrail {
  /** Appends one entry; resolves once it is stored. */
  record(entry: AuditEntry): Promise<void>;
}

/** The actor behind an authenticated request. */
export const actorOf = (user: AuthUser): AuditActor => ({ username: user.username, keyId: user.keyId ?? null, via: user.via });

/**
 * The audit trail over the store's audit log. A write that fails is never dropped quietly: it
 * is logged and `record` rejects, so the request answers an error rather than a success with
 * no row (docs/security/audit.md "When a write fails"). In a request thread the store forwards
 * the append to the process's one writer, like every other write.
 */
export class StoredAuditTrail implements AuditTrail {
  readonly #store: Store;
  readonly #clock: Clock;
  readonly #log: Logger;
  constructor(store: Store, clock: Clock, log: Logger) {
    this.#store = store;
    this.#clock = clock;
    this.#log = log;
  }

  async record(entry: AuditEntry): Promise<void> {
    try {
      await this.#store.audit.append(entry, this.#clock.nowMicros());
    } catch (err) {
      this.#log.error(`Audit entry ${entry.action} on "${entry.target}" could not be stored; the request fails`, err);
      throw err;
    }
  }
}

/** What a handler knows of its request: enough to say who acted and from where. */
export interface AuditContext {
  audit: AuditTrail;
  user: AuthUser;
  remoteIp: string;
}

/** Records an entry for the request's caller; `outcome` is success unless given. */
export const recordFor = (
  ctx: AuditContext,
  e: Omit<AuditEntry, 'actor' | 'address' | 'outcome'> & { outcome?: AuditEntry['outcome'] },
): Promise<void> => ctx.audit.record({ actor: actorOf(ctx.user), address: ctx.remoteIp, outcome: 'success', ...e });

/** The entity of `<entity>/<project>`. */
export const entityOf = (projectId: string): string => projectId.split('/')[0]!;

/** The actor of a `weft` command run on the server: the operating-system account, via 'cli'. */
export function cliActor(): AuditActor {
  let username: string | null = null;
  try {
    username = userInfo().username;
  } catch {
    // No passwd entry for this uid (some containers): the row still says 'cli'.
  }
  return { username, keyId: null, via: 'cli' };
}

/** Appends an entry for a `weft` command, at the wall clock (commands run outside any server). */
export async function recordCli(store: Store, e: Omit<AuditEntry, 'actor' | 'address' | 'outcome'>): Promise<void> {
  await store.audit.append({ actor: cliActor(), address: '', outcome: 'success', ...e }, nowMicros());
}
