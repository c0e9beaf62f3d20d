/**
 * Weft's payload reads in parts (docs/trace-outline.md "Payloads in parts"): a call whose
 * inputs, output and attributes come as a bounded preview (long strings cut to their head, big
 * lists and objects to their first entries, with their full lengths), and one part of a payload
 * by JSON path and offset, so a 20 MB payload is never sent or parsed whole to show its first
 * screen.
 */
import { z } from 'zod';
import { CallSchema } from './calls.js';
import { ProjectId } from './common.js';

/** The fields a preview cuts and a part is read from. */
export const PayloadField = z.enum(['inputs', 'output', 'attributes']);
export type PayloadField = z.infer<typeof PayloadField>;

/** A step of a JSON path: an object key or a list index. */
export const PayloadPathStep = z.union([z.string().max(10_000), z.number().int().min(0)]);
export type PayloadPathStep = z.infer<typeof PayloadPathStep>;

/** Most characters of a string one part answers (a media string is read in one part). */
export const MAX_PART_CHARS = 64_000_000;
/** Most entries of a list or object one part answers. */
export const MAX_PART_ENTRIES = 10_000;

/** Where a value was cut: its path from the call (field first), its full length and how much is there. */
export const PayloadCut = z.object({
  path: z.array(PayloadPathStep).describe('From the call: the field, then keys and indexes'),
  kind: z.enum(['string', 'array', 'object']),
  length: z.number().int().describe('Characters (UTF-16 units) of a string, entries of a list or object'),
  shown: z.number().int().describe('How many of them the answer holds, from the start'),
});
export type PayloadCut = z.infer<typeof PayloadCut>;

export const CallPreviewReq = z.object({
  project_id: ProjectId,
  id: z.string().min(1).max(256),
  include_costs: z.boolean().nullish(),
});
export type CallPreviewReq = z.infer<typeof CallPreviewReq>;

export const CallPreviewRes = z.object({
  call: CallSchema.nullable().describe(
    'The call as /call/read answers it, inputs, output and attributes cut as `cuts` says; null when unknown',
  ),
  cuts: z.array(PayloadCut).describe('Every value cut in the preview, parents before children'),
});
export type CallPreviewRes = z.infer<typeof CallPreviewRes>;

export const PayloadPartReq = z.object({
  project_id: ProjectId,
  id: z.string().min(1).max(256),
  field: PayloadField,
  path: z.array(PayloadPathStep).max(200).default([]).describe('Keys and indexes below the field'),
  offset: z.number().int().min(0).default(0).describe('First character (string) or entry (list, object) to answer'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_PART_CHARS)
    .nullish()
    .describe(`Characters or entries to answer (default 200,000 characters, 1,000 entries; at most ${MAX_PART_ENTRIES} entries)`),
});
export type PayloadPartReq = z.infer<typeof PayloadPartReq>;

export const PayloadPartRes = z.object({
  kind: z.enum(['string', 'array', 'object', 'value']).describe('What is at the path; a `value` (number, bool, null) comes whole'),
  length: z.number().int().describe('Characters or entries of the value at the path'),
  value: z.unknown().describe('The substring, the list of entries from `offset`, the object of those entries, or the value'),
  cuts: z.array(PayloadCut).describe('Values cut inside the answered entries'),
});
export type PayloadPartRes = z.infer<typeof PayloadPartRes>;
