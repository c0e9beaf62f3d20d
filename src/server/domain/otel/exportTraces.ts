/**
 * `POST /otel/v1/traces`: decode an OTLP export, find each resource's project, check the
 * caller may write there, and store every span as a call in one transaction.
 *
 * - Project: the resource attributes `wandb.entity` + `wandb.project`, else the `project_id`
 *   header (`<entity>/<project>`); neither → 400. The caller must be a member of every project
 *   (403 otherwise) before anything is written.
 * - A span whose attributes clash (`a.b` both a value and a prefix) or that lacks its ids is
 *   rejected and reported in `partial_success`; the other spans are stored. The message joins
 *   the first 20 reasons with "; " (then "; ..."), as the reference does.
 */
import type { OtelExportRes } from '../../../contract/otel.js';
import { NAME_PART_RULE, PROJECT_ID_PATTERN } from '../../../contract/common.js';
import type { AuthUser } from '../../auth/authenticate.js';
import { requireRole } from '../../auth/roles.js';
import { endpoints } from '../../../contract/endpoints.js';
import { BadRequestError } from '../../errors.js';
import type { CallWrite, Store } from '../../store/Store.js';
import { toEndWrite, toStartWrite } from '../calls/calls.js';
import { metrics } from '../../metrics/hooks.js';
import { AttributeConflictError, expandAttributes, type Tree } from './attributeTree.js';
import { PROJECT_KEYS } from './conventions.js';
import { decodeOtlp, type OtlpResourceSpans } from './otlpDecode.js';
import { SpanTimeError, spanToCall } from './spanToCall.js';
import { findTooDeep } from '../../http/jsonDepth.js';
import { redactCallWrites } from '../redaction/apply.js';

const MAX_MESSAGES = 20;

/** The project a resource's spans go to. */
function projectOf(rs: OtlpResourceSpans, headerProjectId: string | null): string {
  const attr = (key: string) => rs.resource.attributes.find(([k]) => k === key)?.[1];
  const [entity, project] = [attr(PROJECT_KEYS.entity), attr(PROJECT_KEYS.project)];
  const projectId =
    typeof entity === 'string' && entity && typeof project === 'string' && project ? `${entity}/${project}` : headerProjectId;
  if (!projectId) {
    throw new BadRequestError(
      'No project: set the resource attributes wandb.entity and wandb.project, or send a "project_id: <entity>/<project>" header',
    );
  }
  if (!PROJECT_ID_PATTERN.test(projectId)) {
    throw new BadRequestError(`Invalid project ${JSON.stringify(projectId)}: expected "<entity>/<project>", each part ${NAME_PART_RULE}`);
  }
  return projectId;
}

export async function exportTraces(req: {
  store: Store;
  user: AuthUser;
  body: Uint8Array;
  contentType: string | null;
  headerProjectId: string | null;
  /** Spans whose call would nest deeper than this are rejected (limits.ts `maxJsonDepth`). */
  maxJsonDepth?: number;
}): Promise<OtelExportRes> {
  const resourceSpans = decodeOtlp(req.body, req.contentType);
  const targets = resourceSpans.map((rs) => ({ rs, projectId: projectOf(rs, req.headerProjectId) }));
  // The route cannot see these projects (they are in the body), so the endpoint's role is checked here.
  for (const projectId of new Set(targets.map((t) => t.projectId))) {
    requireRole(req.user, projectId, endpoints.otelExport.role, 'export OpenTelemetry traces');
  }

  const writes: CallWrite[] = [];
  const reasons: string[] = [];
  for (const { rs, projectId } of targets) {
    let resourceTree: Tree;
    try {
      resourceTree = expandAttributes(rs.resource.attributes);
    } catch (err) {
      if (!(err instanceof AttributeConflictError)) throw err;
      for (const span of rs.spans) reasons.push(`span ${span.spanId}: resource ${err.message}`);
      continue;
    }
    const resource = { tree: resourceTree, droppedAttributesCount: rs.resource.droppedAttributesCount };
    for (const span of rs.spans) {
      if (!/^[0-9a-f]{16}$/.test(span.spanId) || !/^[0-9a-f]{32}$/.test(span.traceId)) {
        reasons.push(`span "${span.name}": span_id must be 8 bytes and trace_id 16 bytes`);
        continue;
      }
      try {
        const { start, end } = spanToCall(span, resource, projectId);
        const tooDeep = req.maxJsonDepth ? findTooDeep(start, req.maxJsonDepth) : null;
        if (tooDeep) {
          reasons.push(
            `span ${span.spanId}: attributes nest more than ${req.maxJsonDepth} levels deep at ${tooDeep.join('.')} (WEFT_MAX_JSON_DEPTH)`,
          );
          continue;
        }
        writes.push(toStartWrite(start, req.user.username), toEndWrite(end));
      } catch (err) {
        if (!(err instanceof AttributeConflictError || err instanceof SpanTimeError)) throw err;
        reasons.push(`span ${span.spanId}: ${err.message}`);
      }
    }
  }
  if (writes.length) {
    // After conversion, like every other call: the same rules on the same fields (docs/security/redaction.md).
    await redactCallWrites(req.store, writes);
    await req.store.calls.writeCalls(writes);
    // Each span is stored as one call: a start and its end.
    metrics.ingested('otel', writes.length / 2, writes.length / 2);
  }
  if (reasons.length === 0) return { partial_success: null };
  const shown = reasons.slice(0, MAX_MESSAGES).join('; ');
  return {
    partial_success: {
      rejected_spans: reasons.length,
      error_message: reasons.length > MAX_MESSAGES ? `${shown}; ...` : shown,
    },
  };
}
