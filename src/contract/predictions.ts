/**
 * Predictions (`/v2/{entity}/{project}/predictions`): one model output, stored as a
 * `<model>.predict` call, inside an evaluation run or on its own; see
 * docs/api/evaluations.md §2.2.
 */
import { z } from 'zod';
import { JsonObject, JsonValue, Limit, Offset } from './common.js';
import { V2Path } from './v2Objects.js';

/** A span elsewhere (an agent's OTel trace) that produced the prediction. */
export const GenAISpanRef = z.object({ trace_id: z.string().min(1), span_id: z.string().min(1) });

export const PredictionRead = z.object({
  prediction_id: z.string(),
  model: z.string(),
  inputs: JsonObject,
  output: z.unknown(),
  evaluation_run_id: z.string().nullable(),
  wb_user_id: z.string().nullable(),
});
export type PredictionRead = z.infer<typeof PredictionRead>;

// POST /v2/:entity/:project/predictions
export const PredictionCreateReq = z.object({
  ...V2Path,
  model: z
    .string()
    .min(1)
    .describe('Model object (or op) ref (a weave:/// ref must be a live version here); any other string is kept as given'),
  inputs: JsonObject.describe('The dataset row the model saw'),
  output: JsonValue.describe("The model's output (any JSON, null included)"),
  evaluation_run_id: z.string().nullish().describe('Run the prediction belongs to; it gets a predict_and_score parent'),
  genai_span_ref: z.array(GenAISpanRef).nullish(),
});
export const PredictionCreateRes = z.object({ prediction_id: z.string() });

// GET /v2/:entity/:project/predictions
export const PredictionListReq = z.object({ ...V2Path, evaluation_run_id: z.string().nullish(), limit: Limit, offset: Offset });

// GET /v2/:entity/:project/predictions/:prediction_id
export const PredictionReadReq = z.object({ ...V2Path, prediction_id: z.string().min(1) });

// DELETE /v2/:entity/:project/predictions
export const PredictionDeleteReq = z.object({ ...V2Path, prediction_ids: z.array(z.string()).min(1).max(1000) });

// POST /v2/:entity/:project/predictions/:prediction_id/finish
export const PredictionFinishReq = PredictionReadReq.extend({
  output: JsonValue.optional().describe(
    "The prediction's final output, replacing the one it was created with (null included); absent, the stored output stays",
  ),
});
