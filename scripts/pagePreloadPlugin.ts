/**
 * Vite plugin: lets `public/boot.js` fetch the code of the page being opened at once, beside the
 * entry, instead of in the waterfall the entry starts (entry → the page's chunk and CSS → the
 * chunks it imports → theirs). For each page listed, index.html gets a `<template>` before
 * boot.js holding `<link rel="modulepreload">` for the page's chunks and everything they import
 * statically, and `<link rel="stylesheet">` for their CSS; boot.js adds the template's links to
 * the document when the URL is that page's. Vite's import() then finds them already there and
 * does not wait (docs/trace-outline.md "The cold first paint").
 *
 * The links are HTML, not JavaScript: they cost the initial JavaScript nothing.
 */
import type { OutputBundle, OutputChunk } from 'rolldown';
import type { Plugin } from 'vite';

/** A page opened first: its URL pattern (react-router's, `:name` segments) and its modules. */
export interface PreloadedPage {
  path: string;
  /** Source files, from the project root, whose chunks the page needs first: its component and loader. */
  modules: string[];
}

/** Where the templates go: boot.js reads them as it runs, so they come before it. */
const BOOT_SCRIPT = '<script src="/boot.js"></script>';

export function pagePreload(pages: PreloadedPage[]): Plugin {
  return {
    name: 'weft-page-preload',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return html;
        if (!html.includes(BOOT_SCRIPT)) throw new Error(`pagePreload: index.html has no ${BOOT_SCRIPT} to put the page templates before`);
        const chunks = Object.values(bundle).filter((o): o is OutputChunk => o.type === 'chunk');
        // What index.html loads already: the entry and its static imports, with their CSS.
        const initial = closure(
          bundle,
          chunks.filter((c) => c.isEntry),
        );
        const templates = pages.map((page) => {
          const own = page.modules.map((module) => {
            const chunk = chunks.find((c) => c.facadeModuleId?.replaceAll('\\', '/').endsWith(`/${module}`));
            if (!chunk) throw new Error(`pagePreload: no chunk for ${module} (a page listed in vite.config.ts)`);
            return chunk;
          });
          const needed = closure(bundle, own);
          const links = [
            ...[...needed.js].filter((f) => !initial.js.has(f)).map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`),
            ...[...needed.css].filter((f) => !initial.css.has(f)).map((f) => `<link rel="stylesheet" crossorigin href="/${f}">`),
          ];
          return `<template data-preload-path="${page.path}">${links.join('')}</template>`;
        });
        // Before boot.js and the comment about it, if it has one.
        const at = html.search(/<!--(?:(?!-->)[\s\S])*-->\s*<script src="\/boot\.js">/);
        const index = at >= 0 ? at : html.indexOf(BOOT_SCRIPT);
        return `${html.slice(0, index)}${templates.join('\n    ')}\n    ${html.slice(index)}`;
      },
    },
  };
}

/** The chunks `roots` need before they run (they and their static imports), and their CSS. */
function closure(bundle: OutputBundle, roots: OutputChunk[]): { js: Set<string>; css: Set<string> } {
  const js = new Set<string>();
  const css = new Set<string>();
  const queue = [...roots];
  while (queue.length) {
    const chunk = queue.shift()!;
    if (js.has(chunk.fileName)) continue;
    js.add(chunk.fileName);
    for (const file of chunk.viteMetadata?.importedCss ?? []) css.add(file);
    for (const file of chunk.imports) {
      const next = bundle[file];
      if (next?.type === 'chunk') queue.push(next);
    }
  }
  return { js, css };
}
