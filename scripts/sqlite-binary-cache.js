#!/usr/bin/env node
// A local cache of better-sqlite3's compiled binary, one per (better-sqlite3 version, Node ABI),
// so CI compiles SQLite (about 2 min of CPU) once per version instead of on every install.
// It uses prebuild-install's own "local prebuilds" directory: better-sqlite3's install script
// (`prebuild-install || node-gyp rebuild`) unpacks a matching file from there, checks that it
// loads, and otherwise falls back to compiling. See docs/operations.md "Node versions".
//
//   node scripts/sqlite-binary-cache.js rc [dir]       # before npm ci in dir: point it at the cache
//   node scripts/sqlite-binary-cache.js save [dir]     # after npm ci in dir: keep its binary
//
// `save` runs under the Node the binary was built for (it must load there) and stores it as
// prebuild-install names its downloads: better-sqlite3-v<version>-node-v<abi>-<platform>-<arch>.tar.gz.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const cacheDir = () =>
  join(process.env.WEFT_CI_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'weft-ci'), 'prebuilds');

/**
 * Points prebuild-install at the cache for installs in `projectDir`: it reads `.prebuild-installrc`
 * from its working directory upwards. Not npm's `npm_config_*_local_prebuilds`, which npm 11 warns
 * about on every command as an unknown setting that its next major version drops.
 */
export function writeRc(projectDir) {
  writeFileSync(join(projectDir, '.prebuild-installrc'), `local-prebuilds=${cacheDir()}\n`);
}

/** Stores the better-sqlite3 binary installed under `projectDir` if it is missing from the cache. */
export function saveBinary(projectDir) {
  const pkgDir = join(projectDir, 'node_modules', 'better-sqlite3');
  const { version } = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  const dir = cacheDir();
  const file = join(dir, name);
  if (existsSync(file)) return `${name} already cached`;
  // Only a binary this Node can load goes in: the key says which ABI it is for.
  const Database = createRequire(join(projectDir, 'package.json'))('better-sqlite3');
  new Database(':memory:').close();
  mkdirSync(dir, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  const tar = spawnSync('tar', ['-czf', tmp, '-C', pkgDir, 'build/Release/better_sqlite3.node'], { stdio: 'inherit' });
  if (tar.status !== 0) throw new Error(`tar exited with ${tar.status}`);
  renameSync(tmp, file);
  return `cached ${name}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [command, dir = '.'] = process.argv.slice(2);
  if (command === 'rc') writeRc(resolve(dir));
  else if (command === 'save') console.log(`sqlite-binary-cache: ${saveBinary(resolve(dir))}`);
  else {
    console.error('usage: sqlite-binary-cache.js rc [dir] | save [dir]');
    process.exit(2);
  }
}
