/**
 * The ClickHouse printer of the flat-table query plan (store/query/tablePlan.ts decides what a
 * `/feedback/query` or `/cost/query` request means and every 400 it earns; this only renders it,
 * as sqlite/tableQuery.ts does for SQLite). Every literal, JSON key and index is a `{pN:Type}`
 * parameter; column names come from the store's fixed column list.
 *
 * How the plan's meanings map to ClickHouse:
 * - a JSON path is walked with `JSONExtractRaw` one step at a time (an index step only on a
 *   list, ClickHouse indexes count from 1), so the raw text is '' when the path is missing and
 *   'null' for JSON null; the three views are read from that text;
 * - "a string of `0-9 . e E + -` reads as its numeric prefix" (SQLite's CAST) is a regular
 *   expression plus `toFloat64OrZero`;
 * - conditions are `ifNull(…, 0)` so NULL is false, also under NOT;
 * - NULLs sort first ascending and last descending, as SQLite's do.
 * Known difference: JSON numbers beyond 2^53 and reals SQLite prints with an exponent
 * (`1.0e+21`) read as text the way ClickHouse prints them.
 */
import {
  tableValueRep,
  type JsonPathPart,
  type TableCond,
  type TableField,
  type TablePlan,
  type TableRep,
  type TableValue,
} from '../query/index.js';
import type { Params } from './ClickHouseDatabase.js';

/** The numeric prefix SQLite's CAST reads from text (non-capturing: `extract` returns group 1 otherwise). */
const NUMERIC_PREFIX = String.raw`^\s*[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?`;

/** Collects the parameters of one statement. */
export class ParamSet {
  readonly params: Params;
  #n = 0;
  constructor(params: Params = {}) {
    this.params = params;
  }
  add(value: unknown, type: string): string {
    const name = `t${this.#n++}`;
    this.params[name] = value;
    return `{${name}:${type}}`;
  }
}

const CH_TYPE: Record<TableRep, string> = { text: 'String', number: 'Float64', datetime: 'Int64', bool: 'UInt8' };

/** The printer of one statement's plan nodes. */
export class TablePrinter {
  constructor(readonly p: ParamSet) {}

  /** The raw JSON text at `path` inside `column`: '' when missing, 'null' for JSON null. */
  raw(column: string, path: JsonPathPart[]): string {
    let expr = column;
    for (const part of path) {
      expr =
        'key' in part
          ? `JSONExtractRaw(${expr}, ${this.p.add(part.key, 'String')})`
          : `if(JSONType(${expr}) = 'Array', JSONExtractRaw(${expr}, ${this.p.add(part.index + 1, 'Int64')}), '')`;
    }
    return expr;
  }

  /** Text as SQLite's CAST reads it as a number: its numeric prefix, none reads 0; NULL stays NULL. */
  prefixNumber(text: string): string {
    return `toFloat64OrZero(extract(${text}, ${this.p.add(NUMERIC_PREFIX, 'String')}))`;
  }

  jsonView(column: string, path: JsonPathPart[], view: 'number' | 'bool' | 'text'): string {
    const r = this.raw(column, path);
    if (view === 'bool') return `if(JSONType(${r}) = 'Bool', toNullable(toUInt8(JSONExtractBool(${r}))), NULL)`;
    if (view === 'number') {
      const s = `JSONExtractString(${r})`;
      return `multiIf(JSONType(${r}) IN ('Int64', 'UInt64', 'Double'), toNullable(JSONExtractFloat(${r})),
        JSONType(${r}) = 'String' AND ${s} != '' AND match(${s}, '^[0-9.eE+-]+$'), toNullable(${this.prefixNumber(s)}), NULL)`;
    }
    return `multiIf(${r} IN ('', 'null'), NULL, JSONType(${r}) = 'String', toNullable(JSONExtractString(${r})), toNullable(${r}))`;
  }

  value(v: TableValue): string {
    switch (v.k) {
      case 'column':
        return v.name;
      case 'columnText':
        return `toString(${v.name})`;
      case 'literal':
        return v.value === null ? 'NULL' : this.p.add(v.value, CH_TYPE[v.rep]);
      case 'json':
        return this.jsonView(v.column, v.path, v.view);
      case 'jsonExists':
        return `(${this.raw(v.column, v.path)} != '')`;
      case 'notNull':
        return `isNotNull(${this.value(v.value)})`;
      case 'toInt':
        return `toInt64(trunc(${this.asNumber(v.value)}))`;
      case 'toReal':
        return this.asNumber(v.value);
      case 'size': {
        const r = v.path === null ? v.column : this.raw(v.column, v.path);
        return `if(JSONType(${r}) = 'Array', toNullable(JSONLength(${r})), NULL)`;
      }
      case 'cond':
        return this.cond(v.cond);
    }
  }

  /** A value as a number: text by its numeric prefix (SQLite's reading), anything else as it is. */
  asNumber(v: TableValue): string {
    return tableValueRep(v) === 'text' ? this.prefixNumber(this.value(v)) : this.value(v);
  }

  /** Two sides of a comparison: where one is text and the other not, the other compares as its text. */
  #pair(a: TableValue, b: TableValue): [string, string] {
    const [ra, rb] = [tableValueRep(a), tableValueRep(b)];
    const [sa, sb] = [this.value(a), this.value(b)];
    if (ra === 'text' && rb !== 'text' && !(b.k === 'literal' && b.value === null)) return [sa, `toString(${sb})`];
    if (rb === 'text' && ra !== 'text' && !(a.k === 'literal' && a.value === null)) return [`toString(${sa})`, sb];
    return [sa, sb];
  }

  /** A condition as a 0/1 expression that is never NULL. */
  cond(c: TableCond): string {
    switch (c.k) {
      case 'and':
      case 'or':
        return c.items.length === 1 ? this.cond(c.items[0]!) : `${c.k}(${c.items.map((i) => this.cond(i)).join(', ')})`;
      case 'not':
        return `(NOT ${this.cond(c.item)})`;
      case 'false':
        return '0';
      case 'truthy': {
        const rep = tableValueRep(c.value);
        if (rep === 'bool') return `ifNull(${this.value(c.value)} != 0, 0)`;
        return `ifNull(${this.asNumber(c.value)} != 0, 0)`;
      }
      case 'compare': {
        const [a, b] = this.#pair(c.a, c.b);
        return `ifNull(${a} ${c.op} ${b}, 0)`;
      }
      case 'in': {
        const items = c.items.map((item) => this.#pair(c.value, item)[1]);
        const lhs = this.#pair(c.value, c.items[0]!)[0];
        const inList = `ifNull(${lhs} IN (${items.join(', ')}), 0)`;
        return c.orNull ? `(${inList} OR ${this.isNull(c.value)})` : inList;
      }
      case 'contains': {
        const fold = (s: string) => (c.caseInsensitive ? `lower(${s})` : s);
        return `ifNull(position(${fold(this.value(c.hay))}, ${fold(this.value(c.needle))}) > 0, 0)`;
      }
      case 'listHas': {
        const list = `JSONExtract(${c.column}, 'Array(String)')`;
        const needle = this.value(c.needle);
        if (!c.caseInsensitive) return `ifNull(has(${list}, ${needle}), 0)`;
        return `ifNull(arrayExists(x -> lower(x) = lower(${needle}), ${list}), 0)`;
      }
      case 'isNull':
        return this.isNull(c.value);
    }
  }

  isNull(v: TableValue): string {
    if (v.k === 'json') return `(${this.raw(v.column, v.path)} IN ('', 'null'))`;
    return `isNull(${this.value(v)})`;
  }

  /** A selected field: a column as it is, a JSON path as its JSON text (NULL when missing). */
  select(field: TableField): string {
    return field.kind === 'column' ? field.name : `nullIf(${this.raw(field.column, field.path)}, '')`;
  }

  /** ORDER BY terms of the plan's keys (SQLite's NULL order: first ascending, last descending). */
  order(plan: TablePlan): string[] {
    const dir = (d: 'asc' | 'desc') => (d === 'desc' ? 'DESC NULLS LAST' : 'ASC NULLS FIRST');
    return plan.order.flatMap(({ field, direction }) => {
      if (field.kind === 'column') return [`${field.name} ${dir(direction)}`];
      return [
        `(${this.raw(field.column, field.path)} = '') ASC`,
        `${this.jsonView(field.column, field.path, 'number')} ${dir(direction)}`,
        `${this.jsonView(field.column, field.path, 'text')} ${dir(direction)}`,
      ];
    });
  }
}

/**
 * The SELECT of a plan over `from` (a table expression with `FINAL` where needed) restricted by
 * `scope` (fixed SQL whose parameters are already in `params`), columns `f0`, `f1`, ... holding
 * the fields, then ordered by the plan's keys and `tieBreak`.
 */
export function printTableSelect(q: { from: string; scope: string; params: Params; plan: TablePlan; tieBreak: string[] }): {
  sql: string;
  params: Params;
} {
  const printer = new TablePrinter(new ParamSet(q.params));
  const selects = q.plan.fields.map(({ field }, i) => `${printer.select(field)} AS f${i}`);
  const where = q.plan.where ? `${q.scope} AND ${printer.cond(q.plan.where)}` : q.scope;
  const order = [...printer.order(q.plan), ...q.tieBreak];
  let sql = `SELECT ${selects.join(', ')} FROM ${q.from} WHERE ${where} ORDER BY ${order.join(', ')}`;
  if (q.plan.limit != null || q.plan.offset != null) {
    const offset = printer.p.add(q.plan.offset ?? 0, 'UInt64');
    // LIMIT 0 answers nothing, as in SQLite; no limit at all is the largest UInt64.
    sql +=
      q.plan.limit != null
        ? ` LIMIT ${printer.p.add(q.plan.limit, 'UInt64')} OFFSET ${offset}`
        : ` LIMIT 18446744073709551615 OFFSET ${offset}`;
  }
  return { sql, params: printer.p.params };
}

/** The WHERE condition of the plan's `$expr` (with the scope), for counts. */
export function printTableWhere(q: { scope: string; params: Params; plan: Pick<TablePlan, 'where'> }): { where: string; params: Params } {
  const printer = new TablePrinter(new ParamSet(q.params));
  return { where: q.plan.where ? `${q.scope} AND ${printer.cond(q.plan.where)}` : q.scope, params: printer.p.params };
}
