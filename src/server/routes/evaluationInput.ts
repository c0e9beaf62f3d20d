/**
 * A cheap parse of an evaluation logger's bodies (prediction create, score create, prediction
 * finish), as callWriteInput.ts does for ingest: the same rules as the contract's zod schemas,
 * checked on the parsed JSON, which then goes to the handler as it is. The SDK sends five such
 * requests per prediction, and zod's parse of them (its JSON-value union tried member by member,
 * and the copies it makes) was ~6% of the main thread's time in bench:evaluations: 965, 940,
 * 944 predictions/s at 8 in flight with it, 1,031, 990, 1,003 without it (alternating runs).
 *
 * It says yes only for input the schema accepts, with the values zod would give; whenever it is
 * unsure (a span list, a JSON value it does not walk) it says null and zod parses the body, so
 * every refusal is zod's own 422. The answer holds the schema's keys only.
 * evaluationInput.test.ts checks the two agree on valid bodies and on many broken ones.
 */
import type { z } from 'zod';
import type { PredictionCreateReq, PredictionFinishReq } from '../../contract/predictions.js';
import type { ScoreCreateReq } from '../../contract/scores.js';
import type { JsonValue } from '../../contract/common.js';
import { V2_SEGMENT_PATTERN } from '../../contract/v2Objects.js';
import { isObject } from './callWriteInput.js';

type Raw = Record<string, unknown>;

/** JSON nesting a value may have here; deeper ones are left to zod (the body's depth is bounded before, http/readInput.ts). */
const MAX_WALK_DEPTH = 64;

const isSegment = (v: unknown): v is string => typeof v === 'string' && V2_SEGMENT_PATTERN.test(v);
const isNonEmpty = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const isNullishString = (v: unknown): v is string | null | undefined => v === undefined || v === null || typeof v === 'string';

/**
 * A value the contract's JsonValue accepts as it is: a string, a boolean, null, a finite number
 * (JSON.parse turns 1e400 into Infinity, which zod refuses), or arrays and plain objects of them.
 */
function isJsonValue(v: unknown, depth = 0): v is JsonValue {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(v);
    case 'object':
      if (v === null) return true;
      if (depth >= MAX_WALK_DEPTH) return false;
      if (Array.isArray(v)) return v.every((item) => isJsonValue(item, depth + 1));
      return isObject(v) && Object.values(v).every((item) => isJsonValue(item, depth + 1));
    default:
      return false;
  }
}

/** POST /v2/:entity/:project/predictions, or null to let the schema decide. */
export function fastPredictionCreateInput(raw: Raw): z.output<typeof PredictionCreateReq> | null {
  const { entity, project, model, inputs, output, evaluation_run_id, genai_span_ref } = raw;
  if (!isSegment(entity) || !isSegment(project) || !isNonEmpty(model) || !isObject(inputs)) return null;
  if (output === undefined || !isJsonValue(output) || !isNullishString(evaluation_run_id)) return null;
  // Span refs are rare: their items have a schema of their own.
  if (genai_span_ref !== undefined && genai_span_ref !== null) return null;
  return { entity, project, model, inputs, output, evaluation_run_id, genai_span_ref };
}

/** POST /v2/:entity/:project/scores, or null to let the schema decide. */
export function fastScoreCreateInput(raw: Raw): z.output<typeof ScoreCreateReq> | null {
  const { entity, project, prediction_id, scorer, value, evaluation_run_id } = raw;
  if (!isSegment(entity) || !isSegment(project) || !isNonEmpty(prediction_id) || !isNonEmpty(scorer)) return null;
  if (value === undefined || !isJsonValue(value) || !isNullishString(evaluation_run_id)) return null;
  return { entity, project, prediction_id, scorer, value, evaluation_run_id };
}

/** POST /v2/:entity/:project/predictions/:prediction_id/finish, or null to let the schema decide. */
export function fastPredictionFinishInput(raw: Raw): z.output<typeof PredictionFinishReq> | null {
  const { entity, project, prediction_id, output } = raw;
  if (!isSegment(entity) || !isSegment(project) || !isNonEmpty(prediction_id)) return null;
  if (output !== undefined && !isJsonValue(output)) return null;
  return { entity, project, prediction_id, output };
}
