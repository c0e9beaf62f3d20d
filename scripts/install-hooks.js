#!/usr/bin/env node
// `npm install` runs this (package.json "prepare"): points git at .githooks/, whose pre-commit
// checks the formatting of what is staged, so no commit needs a "Format X" follow-up. Outside a
// git checkout (an installed package) there is nothing to do.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (existsSync('.git') && existsSync('.githooks')) {
  const set = spawnSync('git', ['config', 'core.hooksPath', '.githooks'], { stdio: 'inherit' });
  if (set.status !== 0) console.warn('Could not set core.hooksPath; run `npm run check` before committing.');
}
