/**
 * SQL fragments for SQLite: text from fixed pieces, values only as `?` parameters.
 *
 * Contract: `sql` and `joinSql` keep parameters in text order; `raw` is only for whitelisted
 * names and constants, never for request values; `param` binds one value as SQLite needs it.
 */
export interface SqlFragment {
  sql: string;
  params: unknown[];
}

/** Joins fixed SQL text with fragments, keeping parameters in text order. */
export function sql(strings: TemplateStringsArray, ...parts: SqlFragment[]): SqlFragment {
  let text = strings[0]!;
  const params: unknown[] = [];
  parts.forEach((part, i) => {
    text += part.sql + strings[i + 1]!;
    params.push(...part.params);
  });
  return { sql: text, params };
}

/** Fixed SQL text. Only for whitelisted names and constants, never for request values. */
export const raw = (text: string): SqlFragment => ({ sql: text, params: [] });

/**
 * One bound value. SQLite has no boolean type (true/false bind as 1/0); whole numbers bind as
 * INTEGER so that they print without `.0`; objects and lists bind as JSON text.
 */
export function param(value: unknown): SqlFragment {
  let bound = value;
  if (typeof value === 'boolean') bound = value ? 1n : 0n;
  else if (typeof value === 'number' && Number.isSafeInteger(value)) bound = BigInt(value);
  else if (value !== null && typeof value === 'object') bound = JSON.stringify(value);
  return { sql: '?', params: [bound] };
}

export function joinSql(parts: SqlFragment[], separator: string): SqlFragment {
  return { sql: parts.map((p) => p.sql).join(separator), params: parts.flatMap((p) => p.params) };
}

/**
 * `a AND b AND c ...` as a balanced tree of parentheses: SQLite parses a flat chain into a
 * tree as deep as it is long and refuses one deeper than 1,000 ("Expression tree is too
 * large"), so 2,000 `$and` children would fail; balanced, the depth is log2 of the count.
 */
export function balanced(parts: SqlFragment[], joiner: string): SqlFragment {
  if (parts.length === 1) return parts[0]!;
  if (parts.length <= 8) return sql`(${joinSql(parts, joiner)})`;
  const half = Math.ceil(parts.length / 2);
  return sql`(${balanced(parts.slice(0, half), joiner)}${raw(joiner)}${balanced(parts.slice(half), joiner)})`;
}
