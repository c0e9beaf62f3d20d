/**
 * vitest global setup: brings build/server/ up to date once per run, so the `weft` processes the
 * tests spawn run the built server, as `npm start` does, instead of each compiling the
 * TypeScript sources through tsx (~1 s of CPU per start; docs/performance.md "Test time").
 */
import { buildServer, serverBuildNeed } from '../../../scripts/build.js';

export default async function setup(): Promise<void> {
  // buildServer directly: ensureServerBuilt's check for esbuild (import.meta.resolve) fails inside vitest.
  if (serverBuildNeed() !== 'fresh') await buildServer();
}
