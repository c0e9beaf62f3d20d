/**
 * Shared primitives of the wire contract: project ids, datetimes, sorting, paging and the
 * Mongo-style query language that calls, feedback and costs are filtered with.
 *
 * Conventions (they mirror the Weave trace server, whose clients we serve unchanged):
 * - optional fields are `.nullish()`: the Python SDK sends `null` for every absent field;
 * - unknown keys are stripped, not rejected, so newer clients keep working against us.
 */
import { z } from 'zod';
import { parseIsoToMicros } from './datetime.js';

/**
 * The one rule for an entity or project name, wherever one is created (any write's
 * `project_id`, `/v2/{entity}/{project}`, GraphQL `upsertModel`, OTLP, user entities): not
 * empty, not `.` or `..`, and none of `/ \ # ? % :` (what W&B refuses in project names; they
 * also break refs and dashboard URLs), whitespace or control characters (NUL included). See
 * docs/security/inputs.md.
 */
export const NAME_PART_PATTERN = /^(?!\.\.?$)[^/\\#?%:\s\p{Cc}]+$/u;
/** What a name that breaks NAME_PART_PATTERN is told. */
export const NAME_PART_RULE = 'without "/", "\\", "#", "?", "%", ":", spaces or control characters, and not "." or ".."';
/** An entity or project name, as NAME_PART_PATTERN says. */
export const NamePart = z.string().regex(NAME_PART_PATTERN, `must be a name ${NAME_PART_RULE}`);

/** `<entity>/<project>`: two names, each as NAME_PART_PATTERN says. */
export const PROJECT_ID_PATTERN = /^(?!\.\.?\/)[^/\\#?%:\s\p{Cc}]+\/(?!\.\.?$)[^/\\#?%:\s\p{Cc}]+$/u;
export const ProjectId = z
  .string()
  .regex(PROJECT_ID_PATTERN, `must be "<entity>/<project>", each part ${NAME_PART_RULE}`)
  .describe('Project identifier, "<entity>/<project>"');

/** Any ISO-8601 datetime, with or without an offset (no offset means UTC). */
export const DateTime = z
  .string()
  .refine((s) => parseIsoToMicros(s) !== null, 'must be a valid ISO 8601 datetime')
  .describe('ISO 8601 datetime; UTC when no offset is given');

export const SortDirection = z.enum(['asc', 'desc']);
export type SortDirection = z.infer<typeof SortDirection>;

/** One sort key. `field` may be a dotted JSON path where the endpoint allows it. */
export const SortBy = z.object({
  field: z.string().min(1),
  direction: SortDirection,
});
export type SortBy = z.infer<typeof SortBy>;

export const Limit = z.number().int().min(0).nullish();
export const Offset = z.number().int().min(0).nullish();

/** Any JSON value (used for call inputs/outputs and query literals). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [k: string]: JsonValue };
export const JsonValue: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(JsonValue), z.record(z.string(), JsonValue)]),
);
export const JsonObject = z.record(z.string(), z.unknown());

// ---------------------------------------------------------------------------------------
// Query language: `{"$expr": <operation>}`. Operands are literals, field reads, type
// conversions or nested operations. See docs/api/core.md §2 "Query language".
// ---------------------------------------------------------------------------------------

export type ConvertTo = 'double' | 'string' | 'int' | 'bool' | 'exists';
export type Operand =
  { $literal: JsonValue } | { $getField: string } | { $convert: { input: Operand; to: ConvertTo } } | { $size: Operand } | Operation;
export type Operation =
  | { $and: Operand[] }
  | { $or: Operand[] }
  | { $not: [Operand] }
  | { $eq: [Operand, Operand] }
  | { $gt: [Operand, Operand] }
  | { $gte: [Operand, Operand] }
  | { $lt: [Operand, Operand] }
  | { $lte: [Operand, Operand] }
  | { $in: [Operand, Operand[]] }
  | { $contains: ContainsSpec }
  | { $containsToken: ContainsSpec };
export type ContainsSpec = { input: Operand; substr: Operand; case_insensitive?: boolean | null };

const pair = () => z.tuple([Operand, Operand]);
const contains = () => z.strictObject({ input: Operand, substr: Operand, case_insensitive: z.boolean().nullish() });

export const Operation: z.ZodType<Operation> = z.lazy(() =>
  z.union([
    z.strictObject({ $and: z.array(Operand) }),
    z.strictObject({ $or: z.array(Operand) }),
    z.strictObject({ $not: z.tuple([Operand]) }),
    z.strictObject({ $eq: pair() }),
    z.strictObject({ $gt: pair() }),
    z.strictObject({ $gte: pair() }),
    z.strictObject({ $lt: pair() }),
    z.strictObject({ $lte: pair() }),
    z.strictObject({ $in: z.tuple([Operand, z.array(Operand)]) }),
    z.strictObject({ $contains: contains() }),
    z.strictObject({ $containsToken: contains() }),
  ]),
) as z.ZodType<Operation>;

export const Operand: z.ZodType<Operand> = z.lazy(() =>
  z.union([
    z.strictObject({ $literal: JsonValue }),
    z.strictObject({ $getField: z.string() }),
    z.strictObject({
      $convert: z.strictObject({
        input: Operand,
        to: z.enum(['double', 'string', 'int', 'bool', 'exists']),
      }),
    }),
    // The newest reference's `{"$size": operand}`: the length of a list (NULL when the operand
    // is not a list, as ClickHouse's JSONArrayLength reads it), to compare with a number.
    z.strictObject({ $size: Operand }),
    Operation,
  ]),
) as z.ZodType<Operand>;

/** The `query` field: exactly `{"$expr": operation}` (the reference forbids extra keys). */
export const Query = z.strictObject({ $expr: Operation });
export type Query = z.infer<typeof Query>;
