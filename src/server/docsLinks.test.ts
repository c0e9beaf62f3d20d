/** Relative links in the repository's Markdown (README, CONTRIBUTING, docs/) point at files that exist. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function markdownFiles(): string[] {
  const files = ['README.md', 'CONTRIBUTING.md'].map((f) => join(ROOT, f)).filter((f) => existsSync(f));
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) files.push(path);
    }
  };
  if (existsSync(join(ROOT, 'docs'))) walk(join(ROOT, 'docs'));
  return files;
}

/** The targets of `[text](target)` links outside code, without `#anchors`; external and in-page links left out. */
function relativeLinkTargets(markdown: string): string[] {
  const prose = markdown.replace(/^(```|~~~)[\s\S]*?^\1/gm, '').replace(/`[^`\n]*`/g, '');
  const targets: string[] = [];
  for (const match of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const target = match[1] ?? '';
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue;
    targets.push(decodeURIComponent(target.split('#')[0] ?? ''));
  }
  return targets;
}

describe('Markdown links', () => {
  it('finds relative targets outside code, and only those', () => {
    const sample = [
      'See [ops](docs/operations.md#tls), [web](https://example.com), [top](#run) and [mail](mailto:a@b.c).',
      '`[not a link](nowhere.md)`',
      '```',
      '[also not](nowhere.md)',
      '```',
      '[spaced](docs/a%20b.md "title")',
    ].join('\n');
    expect(relativeLinkTargets(sample)).toEqual(['docs/operations.md', 'docs/a b.md']);
  });

  it('point at files that exist', () => {
    const files = markdownFiles();
    expect(files.map((f) => relative(ROOT, f))).toContain('README.md');
    const broken: string[] = [];
    let checked = 0;
    for (const file of files) {
      for (const target of relativeLinkTargets(readFileSync(file, 'utf8'))) {
        checked += 1;
        if (!existsSync(resolve(dirname(file), target))) broken.push(`${relative(ROOT, file)} → ${target}`);
      }
    }
    expect(checked).toBeGreaterThan(0);
    expect(broken).toEqual([]);
  });
});
