#!/usr/bin/env node
// The `weft` command. Weft runs its TypeScript sources directly through tsx, so there is
// no separate server build step: `npm install` is all a checkout needs.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/server/cli.ts');
await main(process.argv.slice(2));
