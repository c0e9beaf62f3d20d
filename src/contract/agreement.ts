/**
 * `POST /weft/judges/agreement`: how well each scorer (an LLM judge or any runnable whose
 * feedback is stored on calls) agrees with human reviewers who answered the same question on
 * the same calls. A scorer's output field pairs with the annotation question of the same name
 * (a scalar output with the question named after the scorer); docs/judge-agreement.md.
 */
import { z } from 'zod';
import { JsonValue, ProjectId } from './common.js';

export const JudgeAgreementReq = z.object({ project_id: ProjectId });

export const AgreementConfusion = z.object({
  labels: z.array(z.string()).describe('Every answer either side gave, as labels: strings trimmed, other values as JSON'),
  counts: z.array(z.array(z.number().int())).describe('counts[i][j]: pairs where the scorer said labels[i] and a reviewer labels[j]'),
});

export const AgreementDisagreement = z.object({
  call_id: z.string(),
  scorer: JsonValue.describe("The scorer's answer"),
  reviewers: z.array(z.object({ annotator: z.string(), value: JsonValue })).describe('Reviewers who answered otherwise'),
});

export const JudgeAgreementRow = z.object({
  feedback_type: z.string().describe("The scorer's feedback type, wandb.runnable.<name>"),
  scorer: z.string().describe("The scorer's name"),
  runnable_ref: z.string().nullable().describe('The newest version that answered on a paired call'),
  field: z.string().nullable().describe("The output field compared; null: the scorer's whole output"),
  question: z.string().describe('The annotation question, wandb.annotation.<question>'),
  annotation_ref: z.string().nullable(),
  calls: z.number().int().describe('Calls with both a scorer answer and at least one human answer'),
  pairs: z.number().int().describe('(scorer, reviewer) answer pairs: one per human answer on those calls'),
  reviewers: z.number().int().describe('Distinct human reviewers among the pairs'),
  percent_agreement: z.number().nullable(),
  kappa: z.number().nullable().describe("Cohen's κ over the pairs; null when undefined (one label throughout)"),
  alpha: z
    .number()
    .nullable()
    .describe("Krippendorff's α (nominal) with the scorer as one more rater, each call a unit; null when undefined"),
  confusion: AgreementConfusion.describe('Scorer answers in rows, human answers in columns'),
  disagreements: z.array(AgreementDisagreement).describe('Calls where a reviewer answered otherwise, newest first (at most 100)'),
});

export const JudgeAgreementRes = z.object({
  judges: z.array(JudgeAgreementRow).describe('Lowest κ first: the scorers that most need a look'),
  truncated: z.boolean().describe('True when the project had more feedback than one answer reads (the newest was used)'),
});
