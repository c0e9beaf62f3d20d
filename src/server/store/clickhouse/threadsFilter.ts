/**
 * The thread filters of query/threadsFilter.ts as ClickHouse SQL pieces: attribute tests over
 * one turn's `attributes` JSON text, and the statistic bounds over a thread's aggregated row.
 * Every value is a bound `{name:Type}` parameter (`Bind`); SQL text holds fixed names only.
 */
import { isListIndex } from '../../core/fieldPath.js';
import type { AttributeTest, RangeField } from '../query/threadsFilter.js';
import type { Params } from './ClickHouseDatabase.js';

/** Binds a value as a new parameter of the query and returns its `{name:Type}` placeholder. */
export type Bind = (value: unknown, type: string) => string;

export function binder(params: Params): Bind {
  let n = 0;
  return (value, type) => {
    // Several binders may fill one query's parameters: each skips the names already taken.
    while (Object.hasOwn(params, `f${n}`)) n++;
    const name = `f${n++}`;
    params[name] = value;
    return `{${name}:${type}}`;
  };
}

/** JSON arrays longer than this cannot exist in a stored call; a larger index matches nothing. */
const MAX_INDEX = 2 ** 31;

/**
 * Whether a turn's attributes hold every tested value, as a condition over the `attributes`
 * column. A digit-only path part is an array index (JSON path `[n]`): ClickHouse's integer
 * index is 1-based and also walks objects, so the part before it must be an array. A string
 * matches a JSON string, a number a JSON number, a boolean a JSON true/false.
 */
export function attributesMatchSql(tests: AttributeTest[], bind: Bind): string {
  const json = "ifNull(attributes, '')";
  const conditions = tests.map(({ path, value }) => {
    const steps: string[] = [];
    const arrays: string[] = [];
    for (const part of path) {
      if (isListIndex(part)) {
        const index = Number(part);
        if (index >= MAX_INDEX) return '0';
        arrays.push(`JSONType(${[json, ...steps].join(', ')}) = 'Array'`);
        steps.push(bind(index + 1, 'Int64'));
      } else steps.push(bind(part, 'String'));
    }
    const at = [json, ...steps].join(', ');
    const typed =
      typeof value === 'string'
        ? `JSONType(${at}) = 'String' AND JSONExtractString(${at}) = ${bind(value, 'String')}`
        : typeof value === 'number'
          ? `JSONType(${at}) IN ('Int64', 'UInt64', 'Double') AND JSONExtractFloat(${at}) = ${bind(value, 'Float64')}`
          : `JSONType(${at}) = 'Bool' AND JSONExtractBool(${at}) = ${bind(value ? 1 : 0, 'UInt8')}`;
    return [...arrays, typed].join(' AND ');
  });
  return `(${conditions.join(' AND ')})`;
}

/** The thread row's column of each range field (a fixed whitelist: no request text enters SQL). */
const RANGE_COLUMN: Record<RangeField, string> = {
  turn_count: 'turn_count',
  p50_turn_duration_ms: 'p50_turn_duration_ms',
  p99_turn_duration_ms: 'p99_turn_duration_ms',
  error_count: 'error_count',
  total_tokens: 'total_tokens',
  total_cost: 'total_cost',
};

/** Inclusive bounds over the thread row's statistics; a NULL statistic is outside any bound. */
export function boundsSql(min: [RangeField, number][], max: [RangeField, number][], bind: Bind): string[] {
  const column = (field: RangeField) => {
    if (!Object.hasOwn(RANGE_COLUMN, field)) throw new Error(`Unknown thread range field "${field}"`);
    return RANGE_COLUMN[field];
  };
  return [
    ...min.map(([field, value]) => `${column(field)} >= ${bind(value, 'Float64')}`),
    ...max.map(([field, value]) => `${column(field)} <= ${bind(value, 'Float64')}`),
  ];
}
