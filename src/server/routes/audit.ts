/**
 * GET /weft/audit and GET /weft/audit/export: the audit log, read only (docs/security/audit.md).
 * A global admin reads every row; an entity admin reads the rows of the entities they administer
 * (rows of no entity, such as sign-ins, are global admins' only); anyone else is refused.
 */
import { AUDIT_ACTIONS } from '../audit/auditTrail.js';
import type { AuditExportReq, AuditListReq, AuditRow } from '../../contract/audit.js';
import { parseIsoToMicros } from '../../contract/datetime.js';
import type { AuthUser } from '../auth/authenticate.js';
import { requireRole } from '../auth/roles.js';
import { administeredEntities } from '../../contract/roles.js';
import { csvRow } from '../core/csv.js';
import { formatMicros } from '../core/datetime.js';
import { ForbiddenError, ValidationError } from '../errors.js';
import { defineRoutes } from '../http/defineRoutes.js';
import type { AuditCursor, AuditFilter, AuditRecord } from '../store/AuditStore.js';
import { primed, textStream } from './export.js';

export const auditRoutes = defineRoutes({
  auditList: {
    runs: 'read',
    projects: () => [],
    handler: async (req, { store, user }) => {
      const filter = auditFilterFor(user, req);
      const cursor = req.cursor ? decodeCursor(req.cursor) : undefined;
      const rows = await store.audit.query(filter, req.limit, cursor);
      const last = rows.length === req.limit ? rows.at(-1)! : null;
      return { rows: rows.map(toAuditRow), next_cursor: last ? encodeCursor(last) : null, actions: [...AUDIT_ACTIONS] };
    },
  },

  auditExport: {
    runs: 'read',
    projects: () => [],
    handler: async (req, { store, user }) => {
      const rows = await primed(store.audit.stream(auditFilterFor(user, req)));
      const lines = req.format === 'csv' ? csvLines(rows) : jsonLines(rows);
      return new Response(textStream(lines), {
        headers: {
          'content-type': req.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/jsonl; charset=utf-8',
          'content-disposition': `attachment; filename="weft-audit.${req.format}"`,
          'x-content-type-options': 'nosniff',
        },
      });
    },
  },
});

/** The filter asked for, within what the caller may read; 403 or 422 when it cannot be. */
export function auditFilterFor(user: AuthUser, req: Omit<AuditExportReq, 'format'> | AuditListReq): AuditFilter {
  const since = req.since ? parseIsoToMicros(req.since)! : undefined;
  const until = req.until ? parseIsoToMicros(req.until)! : undefined;
  if (since !== undefined && until !== undefined && since >= until) {
    throw new ValidationError([{ loc: ['query', 'until'], msg: '`until` must be later than `since`', type: 'value_error' }]);
  }
  if (req.action && !(AUDIT_ACTIONS as readonly string[]).includes(req.action)) {
    const msg = `unknown action "${req.action}"; one of: ${AUDIT_ACTIONS.join(', ')}`;
    throw new ValidationError([{ loc: ['query', 'action'], msg, type: 'value_error' }]);
  }
  const entity = req.entity ?? undefined;
  const projectId = req.project_id ?? undefined;
  if (entity && projectId && projectId.split('/')[0] !== entity) {
    const msg = `project "${projectId}" is not in entity "${entity}"`;
    throw new ValidationError([{ loc: ['query', 'project_id'], msg, type: 'value_error' }]);
  }
  // An entity admin names one of their entities, or reads all of them.
  const asked = entity ?? projectId?.split('/')[0];
  if (asked) requireRole(user, asked, 'admin', "read this entity's audit log");
  const entities = administeredEntities(user);
  if (entities !== 'all') {
    if (!entities.length) {
      throw new ForbiddenError(
        `User "${user.username}" administers no entity; only global admins and entity admins may read the audit log`,
      );
    }
  }
  return {
    entities,
    ...(req.actor ? { actor: req.actor } : {}),
    ...(req.action ? { action: req.action } : {}),
    ...(entity ? { entity } : {}),
    ...(projectId ? { projectId } : {}),
    ...(since !== undefined ? { since } : {}),
    ...(until !== undefined ? { until } : {}),
  };
}

export const toAuditRow = (r: AuditRecord): AuditRow => ({
  id: r.id,
  time: formatMicros(r.time),
  actor_username: r.actorUsername,
  actor_key_id: r.actorKeyId,
  actor_via: r.actorVia,
  address: r.address,
  action: r.action,
  target: r.target,
  entity: r.entity,
  project_id: r.projectId,
  outcome: r.outcome,
  details: r.details,
  prev_hash: r.prevHash,
  hash: r.hash,
});

/** A page cursor: the last row's time and id, opaque to clients. */
const encodeCursor = (r: AuditRecord): string => Buffer.from(JSON.stringify([r.time, r.id])).toString('base64url');

function decodeCursor(cursor: string): AuditCursor {
  try {
    const [time, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (Number.isSafeInteger(time) && typeof id === 'string' && /:\d+$/.test(id)) return { time: time as number, id };
  } catch {
    // Falls through to the 422 below.
  }
  throw new ValidationError([
    { loc: ['query', 'cursor'], msg: "not a cursor this server gave; send a page's `next_cursor` as it came", type: 'value_error' },
  ]);
}

const CSV_COLUMNS = [
  'id',
  'time',
  'actor_username',
  'actor_key_id',
  'actor_via',
  'address',
  'action',
  'target',
  'entity',
  'project_id',
  'outcome',
  'details',
  'prev_hash',
  'hash',
] as const;

async function* csvLines(rows: AsyncIterable<AuditRecord>): AsyncIterable<string> {
  yield csvRow(CSV_COLUMNS);
  for await (const r of rows) {
    const row = toAuditRow(r);
    yield csvRow(CSV_COLUMNS.map((c) => (c === 'details' ? JSON.stringify(row.details) : row[c])));
  }
}

async function* jsonLines(rows: AsyncIterable<AuditRecord>): AsyncIterable<string> {
  for await (const r of rows) yield `${JSON.stringify(toAuditRow(r))}\n`;
}
