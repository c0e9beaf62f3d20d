/**
 * A function that can be rebuilt from its factory's name and arguments. Store writes that take
 * a callback (an annotation progress transition) run on the writer thread when requests run in
 * threads (threads/), and a closure cannot cross threads: tagged like this, it is sent as
 * `{name, args}` and rebuilt there by the same factory (threads/portableFunctions.ts).
 */
const PORTABLE = Symbol.for('weft.portable');

export interface PortableSpec {
  name: string;
  args: unknown[];
}

export function portable<F extends (...a: never[]) => unknown>(name: string, args: unknown[], fn: F): F {
  return Object.assign(fn, { [PORTABLE]: { name, args } satisfies PortableSpec });
}

export function portableSpecOf(fn: unknown): PortableSpec | null {
  return typeof fn === 'function' ? ((fn as unknown as Record<symbol, PortableSpec | undefined>)[PORTABLE] ?? null) : null;
}
