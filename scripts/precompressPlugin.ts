/**
 * Vite plugin: writes a brotli (`.br`) and a gzip (`.gz`) copy beside each text file of the build
 * (JavaScript, CSS, HTML, SVG), compressed once at the best level, so the server sends whichever
 * the browser accepts without compressing per request (src/server/process/dashboard.ts): the
 * entry's 303 KB go as ~80 KB (docs/trace-outline.md "The cold first paint").
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|webmanifest)$/;
/** Below this a compressed copy saves less than a packet. */
const MIN_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'weft-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir); // scripts/build.js passes an absolute one
    },
    // After Vite has written the bundle and copied public/ (boot.js, the icon).
    async closeBundle() {
      await Promise.all(
        files(outDir)
          .filter((path) => COMPRESSIBLE.test(path) && statSync(path).size >= MIN_BYTES)
          .map(async (path) => {
            const bytes = readFileSync(path);
            const [br, gz] = await Promise.all([
              brotli(bytes, {
                params: {
                  [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                  [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
                },
              }),
              gzipped(bytes, { level: 9 }),
            ]);
            // A copy no smaller than the file is not worth a second read.
            if (br.length < bytes.length) writeFileSync(`${path}.br`, br);
            if (gz.length < bytes.length) writeFileSync(`${path}.gz`, gz);
          }),
      );
    },
  };
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
}
