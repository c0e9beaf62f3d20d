/**
 * Where a worker thread's code is. Built (build/server/), the bundle beside the caller's. From the
 * TypeScript sources (`weft dev`, tests, benches), the source file, which workerBoot.mjs compiles
 * through tsx in the thread, or with WEFT_THREADS_FROM_BUILD=1 the built bundle: compiling the
 * whole server costs each thread ~0.8 s more CPU, so the tests, whose global setup builds the
 * server first, take the bundle (docs/performance.md "Test time").
 */
/** The URL of `name` (a bundle entry of scripts/build.js) for a caller at `callerUrl` in src/server/<dir>/. */
export function threadEntry(callerUrl: string, name: string): string {
  if (!callerUrl.endsWith('.ts')) return new URL(`./${name}.js`, callerUrl).href;
  if (process.env.WEFT_THREADS_FROM_BUILD === '1') return new URL(`../../../build/server/${name}.js`, import.meta.url).href;
  return new URL(`./${name}.ts`, callerUrl).href;
}
