/**
 * Store write arguments that hold functions (see domain/portable.ts): encoded as
 * `{$portable: name, args}` for the trip to the writer and rebuilt there from this registry.
 * A function without a spec cannot be forwarded, and says so.
 */
import { progressTransition, replaceTransition, submitTransition } from '../domain/annotationQueues.js';
import { portableSpecOf } from '../domain/portable.js';

const FACTORIES: Record<string, (...args: never[]) => unknown> = { progressTransition, replaceTransition, submitTransition };

interface Encoded {
  $portable: string;
  args: unknown[];
}

const encodeValue = (v: unknown): unknown => {
  if (typeof v !== 'function') return v;
  const spec = portableSpecOf(v);
  if (!spec || !FACTORIES[spec.name]) throw new Error('A store write was given a function that cannot be sent to the writer thread');
  return { $portable: spec.name, args: spec.args } satisfies Encoded;
};

const isEncoded = (v: unknown): v is Encoded => v !== null && typeof v === 'object' && typeof (v as Encoded).$portable === 'string';

/** Top-level arguments and their own properties (where the store's callbacks sit). */
export function encodeArgs(args: unknown[]): unknown[] {
  return args.map((a) =>
    a !== null && typeof a === 'object' && !Array.isArray(a) && Object.values(a).some((v) => typeof v === 'function')
      ? Object.fromEntries(Object.entries(a).map(([k, v]) => [k, encodeValue(v)]))
      : encodeValue(a),
  );
}

export function decodeArgs(args: unknown[]): unknown[] {
  const decode = (v: unknown) => (isEncoded(v) ? (FACTORIES[v.$portable] as (...a: unknown[]) => unknown)(...v.args) : v);
  return args.map((a) =>
    a !== null && typeof a === 'object' && !Array.isArray(a) && !isEncoded(a) && Object.values(a).some(isEncoded)
      ? Object.fromEntries(Object.entries(a).map(([k, v]) => [k, decode(v)]))
      : decode(a),
  );
}
