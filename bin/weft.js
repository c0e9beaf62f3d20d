#!/usr/bin/env node
// The `weft` command. It runs the server built ahead of time into build/server/ (`npm run build`,
// docs/operations.md); in a checkout it first rebuilds the server when a source is newer than the
// build. `weft dev`, and WEFT_FROM_SOURCE=1 (to run a checkout without building), run the
// TypeScript sources through tsx instead, which only a development install has.
const argv = process.argv.slice(2);
let cli;
if (argv[0] === 'dev' || process.env.WEFT_FROM_SOURCE === '1') {
  const tsx = await import('tsx/esm/api').catch(() => null);
  if (!tsx) {
    console.error('weft: running from the TypeScript sources needs the dev dependencies (tsx): npm install');
    process.exit(1);
  }
  tsx.register();
  cli = await import('../src/server/process/cli.ts');
} else {
  // Only a checkout has the build script; an installed package carries its build.
  const builder = await import('../scripts/build.js').catch((err) => (err.code === 'ERR_MODULE_NOT_FOUND' ? null : Promise.reject(err)));
  try {
    await builder?.ensureServerBuilt();
  } catch (err) {
    console.error(`weft: ${err.message}`);
    process.exit(1);
  }
  process.setSourceMapsEnabled(true);
  cli = await import('../build/server/cli.js');
}
await cli.main(argv);
