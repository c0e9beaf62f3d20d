/**
 * Scores (`/v2/{entity}/{project}/scores`): one scorer's verdict on one prediction, stored as a
 * `<scorer>.score` call plus `wandb.runnable.<scorer>` feedback on the prediction; see
 * docs/api/evaluations.md §2.2.
 */
import { z } from 'zod';
import { JsonValue, Limit, Offset } from './common.js';
import { V2Path } from './v2Objects.js';

export const ScoreRead = z.object({
  score_id: z.string(),
  scorer: z.string(),
  value: z.unknown().describe('The stored score; 0.0 when it was null'),
  evaluation_run_id: z.string().nullable(),
  wb_user_id: z.string().nullable(),
});
export type ScoreRead = z.infer<typeof ScoreRead>;

// POST /v2/:entity/:project/scores
export const ScoreCreateReq = z.object({
  ...V2Path,
  prediction_id: z.string().min(1),
  scorer: z.string().min(1).describe('Scorer object ref'),
  value: JsonValue.describe('Any JSON: a number, a boolean, an object of them, null'),
  evaluation_run_id: z.string().nullish(),
});
export const ScoreCreateRes = z.object({ score_id: z.string() });

// GET /v2/:entity/:project/scores
export const ScoreListReq = z.object({ ...V2Path, evaluation_run_id: z.string().nullish(), limit: Limit, offset: Offset });

// GET /v2/:entity/:project/scores/:score_id
export const ScoreReadReq = z.object({ ...V2Path, score_id: z.string().min(1) });

// DELETE /v2/:entity/:project/scores
export const ScoreDeleteReq = z.object({ ...V2Path, score_ids: z.array(z.string()).min(1).max(1000) });
