/**
 * One config for the dashboard build (index.html -> src/web/main.tsx, output dist/), the
 * dev server (proxying API paths to a running Weft service), and vitest.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  build: { outDir: 'dist', emptyOutDir: true },
  test: {
    include: ['src/**/*.test.ts', 'bench/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
