/**
 * Vite plugin: the trace page's early paint (src/web/features/traces/earlyTrace.ts) as one small
 * script of its own, which public/boot.js loads when a trace is opened, so the first rows paint
 * from the outline before the app's code is in (docs/trace-outline.md "Painted before the app's
 * code"). Built by esbuild apart from the app's bundle: a second entry in it would share modules
 * (formatting, the tree model) with the app's chunks, splitting them and making the early script
 * wait for a shared chunk. Its CSS is the app's, in the one stylesheet index.html links.
 *
 * index.html gets `<meta name="weft-early-trace" content="/assets/earlyTrace-<hash>.js">` before
 * boot.js, which reads it; under `weft dev` the meta names the source, which Vite serves.
 */
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Plugin } from 'vite';

const SOURCE = 'src/web/features/traces/earlyTrace.ts';
const BOOT_SCRIPT = '<script src="/boot.js"></script>';

export function earlyScript(): Plugin {
  let fileName = '';
  let code = '';
  let serving = false;
  return {
    name: 'weft-early-script',
    configResolved(config) {
      serving = config.command === 'serve';
    },
    async buildStart() {
      if (serving) return;
      const out = await build({
        entryPoints: [fileURLToPath(new URL(`../${SOURCE}`, import.meta.url))],
        bundle: true,
        write: false,
        format: 'esm',
        target: 'es2022',
        minify: true,
        legalComments: 'none',
        loader: { '.css': 'empty' },
      });
      code = out.outputFiles[0]!.text;
      fileName = `assets/earlyTrace-${createHash('sha256').update(code).digest('base64url').slice(0, 8)}.js`;
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName, source: code });
    },
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        if (!html.includes(BOOT_SCRIPT)) throw new Error(`earlyScript: index.html has no ${BOOT_SCRIPT} to put the meta before`);
        const src = serving ? `/${SOURCE}` : `/${fileName}`;
        return html.replace(BOOT_SCRIPT, `<meta name="weft-early-trace" content="${src}" />\n    ${BOOT_SCRIPT}`);
      },
    },
  };
}
