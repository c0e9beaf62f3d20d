/**
 * Fast checks for contract schemas the server's fast input checker (server/http/fastValidator.ts)
 * cannot see through (a refine) or walks slowly (a recursive union), found by identity. Each
 * must say true only for values the schema accepts unchanged: see docs/architecture.md "Fast input checks".
 */
import type { z } from 'zod';
import { DateTime, JsonValue } from './common.js';
import { parseIsoToMicros } from './datetime.js';

/** JSON nesting walked here; deeper values are left to zod (bodies' depth is bounded before that). */
const MAX_JSON_DEPTH = 64;

/**
 * What JsonValue accepts as it is: a string, a boolean, null, a finite number (JSON.parse reads
 * 1e400 as Infinity, which zod refuses), or arrays and plain objects of them, none with an own
 * `__proto__` key (zod's copy of a record drops it).
 */
function isJsonValue(v: unknown, depth = 0): boolean {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(v);
    case 'object': {
      if (v === null) return true;
      if (depth >= MAX_JSON_DEPTH) return false;
      if (Array.isArray(v)) {
        for (const item of v) if (!isJsonValue(item, depth + 1)) return false;
        return true;
      }
      const proto = Object.getPrototypeOf(v) as unknown;
      if ((proto !== Object.prototype && proto !== null) || Object.hasOwn(v, '__proto__')) return false;
      for (const key in v) if (!isJsonValue((v as Record<string, unknown>)[key], depth + 1)) return false;
      return true;
    }
    default:
      return false;
  }
}

export const FAST_CHECKS: ReadonlyMap<z.ZodType, (v: unknown) => boolean> = new Map<z.ZodType, (v: unknown) => boolean>([
  [DateTime, (v) => typeof v === 'string' && parseIsoToMicros(v) !== null],
  [JsonValue, isJsonValue],
]);
