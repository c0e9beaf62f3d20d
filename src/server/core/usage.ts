/**
 * The one reader of a usage entry: how a call's `summary.usage` (one object per model) becomes
 * token counts. Every count of tokens, in the stores (stats rollups, thread statistics) and in
 * the domain (costs, evaluation rows, export), reads usage through here so the same call never
 * shows two totals. Neutral: imports nothing from domain/ or store/.
 *
 * Decisions:
 * - input tokens = prompt_tokens + input_tokens, output = completion_tokens + output_tokens,
 *   as the reference's stats query and cost maths count them; the reference's internal
 *   `gross_input_tokens` marker is not read.
 * - Token counts are integers: non-integers are truncated, non-numbers count as 0, except
 *   `total_tokens`, which is null when absent.
 */
export interface UsageEntry {
  model: string;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number | null;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
  requests: number;
}

const int = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : 0);

/** The usage entries of a call's `summary.usage` JSON. */
export function usageEntries(usageJson: string | null | undefined): UsageEntry[] {
  if (!usageJson) return [];
  try {
    return usageEntriesOf(JSON.parse(usageJson));
  } catch {
    return [];
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The usage entries of a parsed `summary.usage`. */
export function usageEntriesOf(usage: unknown): UsageEntry[] {
  if (!isObject(usage)) return [];
  return Object.entries(usage).flatMap(([model, u]) => {
    if (!isObject(u)) return [];
    return {
      model,
      inputTokens: int(u.prompt_tokens) + int(u.input_tokens),
      outputTokens: int(u.completion_tokens) + int(u.output_tokens),
      totalTokens: typeof u.total_tokens === 'number' && Number.isFinite(u.total_tokens) ? Math.trunc(u.total_tokens) : null,
      cacheReadInputTokens: int(u.cache_read_input_tokens),
      cacheCreationInputTokens: int(u.cache_creation_input_tokens),
      requests: int(u.requests),
    };
  });
}
