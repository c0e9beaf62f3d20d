/**
 * Server-side builtin object classes (docs/api/core.md §2 "ObjSchema", builtin classes): a small
 * description of a pydantic model, checked against a value and dumped the way the reference's
 * `dump_base_object` does it, so a class the server stamps hashes to the reference's digest:
 * `_type`, every declared field in declaration order (defaults filled in), `_class_name`,
 * `_bases`, and nested models dumped the same way with `_bases: ["BaseModel"]`.
 */
import type { ValidationIssue } from '../../../contract/errors.js';
import { ValidationError } from '../../errors.js';
import { isLosslessObject, PyFloat, type LosslessObject, type LosslessValue } from './losslessJson.js';

/** A field's type, as far as the builtin classes need one. */
export type FieldType =
  | { kind: 'str' }
  | { kind: 'bool' }
  | { kind: 'int' }
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'list'; of: FieldType }
  | { kind: 'dict'; of: FieldType }
  | { kind: 'union'; of: readonly FieldType[] }
  | { kind: 'model'; model: ModelSpec }
  /** Kept as given: shapes owned by the calls API (a filter, a query, sort keys). */
  | { kind: 'json'; check: (v: LosslessValue) => boolean; expected: string };

export interface FieldSpec {
  name: string;
  type: FieldType;
  /** Declared `X | None = None`: may be absent or null, dumped as null when absent. */
  optional?: boolean;
}

export interface ModelSpec {
  name: string;
  fields: readonly FieldSpec[];
  /** The reference's `mro()[1:-1]`. */
  bases: readonly string[];
}

export const STR: FieldType = { kind: 'str' };
export const BOOL: FieldType = { kind: 'bool' };
export const INT: FieldType = { kind: 'int' };
export const listOf = (of: FieldType): FieldType => ({ kind: 'list', of });
export const dictOf = (of: FieldType): FieldType => ({ kind: 'dict', of });
export const model = (m: ModelSpec): FieldType => ({ kind: 'model', model: m });
export const oneOf = (values: readonly string[]): FieldType => ({ kind: 'enum', values });

/** Fields every `BaseObject` declares first. */
export const BASE_OBJECT_FIELDS: readonly FieldSpec[] = [
  { name: 'name', type: STR, optional: true },
  { name: 'description', type: STR, optional: true },
];

/** Validates `val` as `spec` and answers the reference's dump of it; 422 naming every bad field. */
export function dumpModel(val: LosslessValue, spec: ModelSpec): LosslessObject {
  const issues: ValidationIssue[] = [];
  const out = dumpAs(val, model(spec), ['val'], issues);
  if (issues.length) throw new ValidationError(issues);
  return out as LosslessObject;
}

/** Validates `val` as `spec` without changing it (a value that already names its class). */
export function checkModel(val: LosslessValue, spec: ModelSpec): void {
  dumpModel(val, spec);
}

function dumpAs(val: LosslessValue, type: FieldType, loc: (string | number)[], issues: ValidationIssue[]): LosslessValue {
  const fail = (msg: string): LosslessValue => {
    issues.push({ loc, msg, type: 'value_error' });
    return null;
  };
  switch (type.kind) {
    case 'str':
      return typeof val === 'string' ? val : fail('Input should be a valid string');
    case 'bool':
      return typeof val === 'boolean' ? val : fail('Input should be a valid boolean');
    case 'int':
      return (typeof val === 'number' && Number.isInteger(val)) || typeof val === 'bigint'
        ? val
        : val instanceof PyFloat && Number.isInteger(val.value)
          ? val.value
          : fail('Input should be a valid integer');
    case 'enum':
      return typeof val === 'string' && type.values.includes(val)
        ? val
        : fail(`Input should be ${type.values.map((v) => `'${v}'`).join(', ')}`);
    case 'list':
      return Array.isArray(val) ? val.map((v, i) => dumpAs(v, type.of, [...loc, i], issues)) : fail('Input should be a valid list');
    case 'dict':
      if (!isLosslessObject(val)) return fail('Input should be a valid dictionary');
      return new Map([...val].map(([k, v]) => [k, dumpAs(v, type.of, [...loc, k], issues)]));
    case 'union': {
      for (const member of type.of) {
        const tried: ValidationIssue[] = [];
        const out = dumpAs(val, member, loc, tried);
        if (tried.length === 0) return out;
      }
      return fail(`Input should be one of: ${type.of.map((t) => t.kind).join(', ')}`);
    }
    case 'json':
      return type.check(val) ? val : fail(`Input should be ${type.expected}`);
    case 'model': {
      if (!isLosslessObject(val)) return fail(`Input should be a valid dictionary or instance of ${type.model.name}`);
      const out: LosslessObject = new Map([['_type', type.model.name]]);
      for (const field of type.model.fields) {
        const given = val.get(field.name);
        if (given === undefined || given === null) {
          if (field.optional) out.set(field.name, null);
          else issues.push({ loc: [...loc, field.name], msg: 'Field required', type: 'missing' });
          continue;
        }
        out.set(field.name, dumpAs(given, field.type, [...loc, field.name], issues));
      }
      out.set('_class_name', type.model.name);
      out.set('_bases', [...type.model.bases]);
      return out;
    }
  }
}
