/**
 * Feedback validation and payload processing, as the reference's `validate_feedback_create_req`
 * and `process_feedback_payload` do it (weave/trace_server/feedback.py). Every failure is a
 * 400 with the reference's wording, raised before anything is written.
 *
 * Rules by feedback type:
 * - `wandb.reaction.1`: `payload.emoji` is exactly one emoji; the stored payload gains
 *   `alias` (`:thumbs_up:`), `detoned` (skin tone removed) and `detoned_alias`.
 * - `wandb.note.1`: `payload.note` is a string of 1–1024 characters.
 * - `wandb.annotation.<name>`: `annotation_ref` is an object ref named `<name>` in this same
 *   project, the payload has a `value`, and that value satisfies the `field_schema` (JSON
 *   Schema) of the AnnotationSpec object the ref names (`checkAnnotationSpec`).
 * - `wandb.runnable.<name>`: `runnable_ref` is an op or object ref named `<name>`, an op needs
 *   a `call_ref` (a call ref), and the payload has an `output`.
 * - `wandb.agent_monitor`: `runnable_ref`, `call_ref` and `trigger_ref` are all required.
 * - any other type: `annotation_ref`, `runnable_ref`, `call_ref` and `trigger_ref` are refused.
 * - the typed scorer results (`scorer_tags`, `scorer_ratings` and their reasons and
 *   confidences) only on `wandb.runnable.*`, `wandb.agent_monitor` and
 *   `wandb.agent_user_feedback`, and the last needs a non-empty `scorer_tags`.
 * - every type: `weave_ref` is a `weave:///` ref and the stored payload's JSON is ≤ 1 MiB.
 */
import { ScorerFeedbackFields, type FeedbackCreateReq, type ScorerFeedback } from '../../../contract/feedback.js';
import { ApiError, BadRequestError } from '../../errors.js';
import type { FeedbackWrite } from '../../store/FeedbackStore.js';
import type { Store } from '../../store/Store.js';
import { countEmojis, demojize, detone } from './emoji.js';
import { uuidv7 } from '../../core/ids.js';
import { matchesSchema } from '../objects/jsonSchema.js';
import { parseRef, type WeaveRef } from '../objects/refs.js';
import { readRefs } from '../objects/refsRead.js';

const REACTION_TYPE = 'wandb.reaction.1';
const NOTE_TYPE = 'wandb.note.1';
const ANNOTATION_PREFIX = 'wandb.annotation';
const RUNNABLE_PREFIX = 'wandb.runnable';
const AGENT_MONITOR_TYPE = 'wandb.agent_monitor';
const AGENT_USER_FEEDBACK_TYPE = 'wandb.agent_user_feedback';
/** The typed scorer results; the span_* and trace fields are allowed on any type. */
const SCORER_RESULT_FIELDS = [
  'scorer_tags',
  'scorer_tag_reasons',
  'scorer_tag_confidences',
  'scorer_ratings',
  'scorer_rating_reasons',
  'scorer_rating_confidences',
] as const;
const MAX_NOTE_LENGTH = 1024;
const MAX_PAYLOAD_BYTES = 1 << 20;

/** The ref parsed, or 400 when it is not one of the given kinds. */
function refOf(ref: string, field: string, kinds: WeaveRef['kind'][]): WeaveRef {
  const parsed = parseRef(ref);
  if (!kinds.includes(parsed.kind))
    throw new BadRequestError(`${field} must be ${kinds.map((k) => `an ${k}`).join(' or ')} ref, not ${ref}`);
  return parsed;
}

const nameOf = (ref: WeaveRef): string | null => (ref.kind === 'object' || ref.kind === 'op' ? ref.name : null);

/** The part of a `<prefix>.<name>` feedback type after the prefix, or 400. */
function subname(feedbackType: string, prefix: string, what: string): string {
  if (!feedbackType.startsWith(`${prefix}.`) || feedbackType.length === prefix.length + 1) {
    throw new BadRequestError(`Invalid ${what} feedback type: ${feedbackType}`);
  }
  return feedbackType.slice(prefix.length + 1);
}

function invalidPayload(req: FeedbackCreateReq, why: string): never {
  throw new BadRequestError(`Invalid payload for feedback_type ${req.feedback_type}: ${why}`);
}

/** Throws 400 unless the request's refs and payload fit its feedback type. */
export function validateFeedback(req: FeedbackCreateReq): void {
  if (!req.weave_ref.startsWith('weave:///')) {
    throw new BadRequestError(`Invalid weave_ref "${req.weave_ref}": expected a weave:/// ref, e.g. weave:///<entity>/<project>/call/<id>`);
  }
  const { payload } = req;
  if (req.feedback_type === REACTION_TYPE && typeof payload.emoji !== 'string') invalidPayload(req, 'emoji must be a string');
  if (req.feedback_type === NOTE_TYPE) {
    // Counted in characters (code points), as Python's len() does.
    const length = typeof payload.note === 'string' ? [...payload.note].length : 0;
    if (length < 1 || length > MAX_NOTE_LENGTH) {
      invalidPayload(req, `note must be a string of 1 to ${MAX_NOTE_LENGTH} characters`);
    }
  }
  if (req.feedback_type.startsWith(ANNOTATION_PREFIX)) {
    const name = subname(req.feedback_type, ANNOTATION_PREFIX, 'annotation');
    if (!req.annotation_ref) throw new BadRequestError('annotation_ref is required for annotation feedback');
    const ref = refOf(req.annotation_ref, 'annotation_ref', ['object']);
    if (nameOf(ref) !== name) throw new BadRequestError(`annotation_ref must point to an object with name ${name}`);
    if (ref.projectId !== req.project_id) {
      throw new BadRequestError(`Annotation ref ${req.annotation_ref} does not match project id ${req.project_id}`);
    }
    if (!('value' in payload)) invalidPayload(req, 'value is required');
  } else if (req.annotation_ref) {
    throw new BadRequestError('annotation_ref is not allowed for non-annotation feedback');
  } else if (req.feedback_type.startsWith(RUNNABLE_PREFIX)) {
    const name = subname(req.feedback_type, RUNNABLE_PREFIX, 'runnable');
    if (!req.runnable_ref) throw new BadRequestError('runnable_ref is required for runnable feedback');
    const ref = refOf(req.runnable_ref, 'runnable_ref', ['op', 'object']);
    if (nameOf(ref) !== name) throw new BadRequestError(`runnable_ref must point to an object with name ${name}`);
    if (ref.kind === 'op' && !req.call_ref) throw new BadRequestError('call_ref is required for runnable feedback on ops');
    if (!('output' in payload)) invalidPayload(req, 'output is required');
  } else if (req.feedback_type === AGENT_MONITOR_TYPE) {
    if (!req.runnable_ref) throw new BadRequestError('runnable_ref is required for agent monitor feedback');
    if (req.call_ref == null) throw new BadRequestError('call_ref is required for agent monitor feedback');
    if (req.trigger_ref == null) throw new BadRequestError('trigger_ref is required for agent monitor feedback');
  } else if (req.runnable_ref) {
    throw new BadRequestError('runnable_ref is not allowed for non-runnable feedback');
  } else if (req.call_ref) {
    throw new BadRequestError('call_ref is not allowed for non-runnable feedback');
  } else if (req.trigger_ref) {
    throw new BadRequestError('trigger_ref is not allowed for non-runnable feedback');
  }
  validateScorerResults(req);
  if (req.runnable_ref) refOf(req.runnable_ref, 'runnable_ref', ['op', 'object']);
  if (req.call_ref) refOf(req.call_ref, 'call_ref', ['call']);
  if (req.trigger_ref) refOf(req.trigger_ref, 'trigger_ref', ['object']);
}

/** Scorer results belong to scorer-written feedback; an empty list or map counts as unset. */
function validateScorerResults(req: FeedbackCreateReq): void {
  const isSet = (v: unknown) => (Array.isArray(v) ? v.length > 0 : v != null && typeof v === 'object' && Object.keys(v).length > 0);
  const type = req.feedback_type;
  const allowed = type.startsWith(RUNNABLE_PREFIX) || type === AGENT_MONITOR_TYPE || type === AGENT_USER_FEEDBACK_TYPE;
  if (!allowed && SCORER_RESULT_FIELDS.some((field) => isSet(req[field]))) {
    throw new BadRequestError(
      `${SCORER_RESULT_FIELDS.join(', ')} are only allowed on ${AGENT_MONITOR_TYPE}, ${AGENT_USER_FEEDBACK_TYPE}, or ${RUNNABLE_PREFIX} feedback`,
    );
  }
  if (type === AGENT_USER_FEEDBACK_TYPE && !isSet(req.scorer_tags)) {
    throw new BadRequestError('scorer_tags is required for agent user feedback');
  }
}

/**
 * For annotation feedback, reads the AnnotationSpec its (already validated) `annotation_ref`
 * names and checks `payload.value` against the spec's `field_schema`; 400 when the spec is
 * missing or deleted, is not a spec, or refuses the value.
 */
export async function checkAnnotationSpec(store: Store, req: FeedbackCreateReq): Promise<void> {
  if (!req.feedback_type.startsWith(ANNOTATION_PREFIX) || !req.annotation_ref) return;
  let spec: unknown;
  try {
    [spec] = await readRefs(store, [req.annotation_ref]);
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 404) throw err;
  }
  if (spec === undefined || spec === null) throw new BadRequestError(`Annotation ref ${req.annotation_ref} not found`);
  const fieldSchema = typeof spec === 'object' ? (spec as { field_schema?: unknown }).field_schema : undefined;
  if (fieldSchema === undefined || fieldSchema === null || (typeof fieldSchema !== 'object' && typeof fieldSchema !== 'boolean')) {
    throw new BadRequestError(`Annotation ref ${req.annotation_ref} is not a valid annotation spec`);
  }
  if (!matchesSchema(req.payload.value, fieldSchema)) throw new BadRequestError('Feedback payload does not match annotation spec');
}

/** The payload as stored: reactions gain their aliases. */
export function processPayload(req: FeedbackCreateReq): Record<string, unknown> {
  const payload = { ...req.payload };
  if (req.feedback_type === REACTION_TYPE) {
    const emoji = payload.emoji as string;
    if (countEmojis(emoji) !== 1) throw new BadRequestError('Value of emoji key in payload must be exactly one emoji');
    payload.alias = demojize(emoji);
    payload.detoned = detone(emoji);
    payload.detoned_alias = demojize(payload.detoned as string);
  }
  return payload;
}

/**
 * The field as the request spelled it when `fields` asks for the match count (`count(*)`, any
 * case), else null. The count is an aggregate: beside another field it is a 400, as no row
 * could hold both.
 */
export function countStarField(fields: readonly string[] | null | undefined): string | null {
  const counts = (fields ?? []).filter((f) => f.toLowerCase() === 'count(*)');
  if (counts.length === 0) return null;
  if (counts.length !== fields!.length) {
    throw new BadRequestError(`count(*) cannot be combined with other fields: ask for ["count(*)"] alone, or for columns`);
  }
  return counts[0]!;
}

/** A validated request as the row to store, created by `userId` at `now` (epoch µs). */
export function toFeedbackWrite(req: FeedbackCreateReq, userId: string, now: number): FeedbackWrite {
  validateFeedback(req);
  const payloadJson = JSON.stringify(processPayload(req));
  if (Buffer.byteLength(payloadJson) > MAX_PAYLOAD_BYTES) throw new BadRequestError('Feedback payload too large');
  return {
    projectId: req.project_id,
    id: req.id ?? uuidv7(),
    weaveRef: req.weave_ref,
    wbUserId: userId,
    creator: req.creator ?? null,
    createdAt: now,
    feedbackType: req.feedback_type,
    payloadJson,
    annotationRef: req.annotation_ref ?? null,
    runnableRef: req.runnable_ref ?? null,
    callRef: req.call_ref ?? null,
    triggerRef: req.trigger_ref ?? null,
    queueId: req.queue_id ?? null,
    scorer: scorerFieldsOf(req),
  };
}

/** The typed scorer fields a create carries (contract ScorerFeedbackFields). */
function scorerFieldsOf(req: FeedbackCreateReq): ScorerFeedback {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(ScorerFeedbackFields) as (keyof ScorerFeedback)[]) if (req[key] != null) out[key] = req[key];
  return out as ScorerFeedback;
}
