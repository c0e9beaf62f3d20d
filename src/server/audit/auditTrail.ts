/**
 * The audit log's write side: one entry per security- or data-relevant action, appended and
 * never changed (docs/security/audit.md). Handlers record through `ctx.audit`.
 */
import type { AuthUser } from '../auth/authenticate.js';

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

/** Keeps nothing: what the services hold until the stored audit log is wired in. */
export const unstoredAuditTrail: AuditTrail = { record: async () => {} };
