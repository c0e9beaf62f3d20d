/**
 * Vite plugin: puts public/boot.js into the built index.html as an inline script, so the trace
 * page's outline request (and the early paint's script) leave as soon as the HTML's head is
 * parsed, not a round trip later once boot.js has been fetched: with an empty cache that trip
 * came before everything the first paint waits for (docs/trace-outline.md "Painted before the
 * app's code"). The server allows it by its hash (src/server/process/dashboard.ts); `weft dev`
 * keeps loading the file. Listed after the plugins that place their tags beside boot.js.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const BOOT_SCRIPT = '<script src="/boot.js"></script>';

export function inlineBoot(): Plugin {
  return {
    name: 'weft-inline-boot',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        if (!html.includes(BOOT_SCRIPT)) throw new Error(`inlineBoot: index.html has no ${BOOT_SCRIPT}`);
        const code = readFileSync(fileURLToPath(new URL('../public/boot.js', import.meta.url)), 'utf8');
        if (/<\/script/i.test(code)) throw new Error('inlineBoot: public/boot.js must not contain "</script"');
        // A function, so `$&` and the like in the code are not replacement patterns.
        return html.replace(BOOT_SCRIPT, () => `<script>${code}</script>`);
      },
    },
  };
}
