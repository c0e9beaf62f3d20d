/**
 * ClickHouse reads query parameters from the request's URL form, and its HTTP handler refuses a
 * form of more than about a thousand fields ("HTML Form Exception: Too many form fields", not a
 * setting a query can raise). A long but valid `$expr` (hundreds of compared literals) prints more
 * parameters than that. Past `PACK_ABOVE` parameters, the scalar ones are packed into one array
 * parameter per type and each placeholder reads its element: `{t7:String}` becomes
 * `{__weft_String:Array(String)}[3]`. Parameters are substituted before analysis, so an element of
 * a constant array is a constant like the literal was; LIMIT/OFFSET operands stay as they are.
 */
type Params = Record<string, unknown>;

/** Below this many parameters a statement is sent as printed. */
const PACK_ABOVE = 200;

/** Types whose values pack as array elements unchanged (the printers' scalar parameters). */
const SCALAR = /^(Nullable\()?(String|Bool|U?Int(8|16|32|64)|Float(32|64))\)?$/;
const PLACEHOLDER = /(\b(?:LIMIT|OFFSET)\s+)?\{(\w+):([^{}]+)\}/gi;

export function packParams(query: string, params: Params): { query: string; params: Params } {
  if (Object.keys(params).length <= PACK_ABOVE) return { query, params };
  const packed: Params = { ...params };
  const groups = new Map<string, { param: string; values: unknown[]; index: Map<string, number> }>();
  const kept = new Set<string>();
  const text = query.replace(PLACEHOLDER, (whole, limitKeyword: string | undefined, name: string, type: string) => {
    if (limitKeyword || !SCALAR.test(type) || !(name in params)) {
      kept.add(name);
      return whole;
    }
    let group = groups.get(type);
    if (!group) {
      group = { param: `__weft_${groups.size}`, values: [], index: new Map() };
      groups.set(type, group);
    }
    let at = group.index.get(name);
    if (at === undefined) {
      at = group.values.push(params[name]);
      group.index.set(name, at);
    }
    return `{${group.param}:Array(${type})}[${at}]`;
  });
  for (const [, group] of groups) {
    for (const name of group.index.keys()) if (!kept.has(name)) delete packed[name];
    packed[group.param] = group.values;
  }
  return { query: text, params: packed };
}
