/**
 * A code-split component that renders without a Suspense fallback: its module is fetched on
 * first use, or earlier by whoever knows it will be needed (the first page, a menu about to
 * open), and `useDeferred` gives the component once it is in, null until then, so the caller
 * shows its own loading state. React 19 holds back the reveal of a suspended boundary until
 * 300 ms after its fallback showed (FALLBACK_THROTTLE_MS), so `lazy` + `Suspense` would put
 * 300 ms between the code arriving and the component showing.
 */
import { useEffect, useReducer, useState, type ComponentType } from 'react';

export interface DeferredComponent<P extends object = object> {
  /** Fetches the module once; a failed fetch is tried again on the next call. */
  load(): Promise<ComponentType<P>>;
  /** The component, once its module is in. */
  loaded(): ComponentType<P> | null;
}

/** A `DeferredComponent` from a module import and the component it exports. */
export function deferComponent<M, P extends object = object>(
  load: () => Promise<M>,
  pick: (m: M) => ComponentType<P>,
): DeferredComponent<P> {
  let component: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  return {
    load: () =>
      (loading ??= load().then(
        (m) => (component = pick(m)),
        (error: unknown) => {
          loading = null;
          throw error;
        },
      )),
    loaded: () => component,
  };
}

/** The component (fetching its module if need be), or null while it loads, with the fetch's failure. */
export function useDeferred<P extends object>(
  deferred: DeferredComponent<P> | undefined,
): { Component: ComponentType<P> | null; error: unknown } {
  const [, arrived] = useReducer((n: number) => n + 1, 0);
  const [error, setError] = useState<{ error: unknown } | null>(null);
  const Component = deferred?.loaded() ?? null;
  useEffect(() => {
    if (deferred && !Component) deferred.load().then(arrived, (e: unknown) => setError({ error: e }));
  }, [deferred, Component]);
  return { Component, error: error?.error ?? null };
}
