/**
 * Code comments point at documents in this repository, never at ones outside it or at issue
 * numbers, which a reader of the code cannot open (CONTRIBUTING.md).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const sources = execFileSync('git', ['ls-files', 'src', 'e2e', 'bench', 'scripts'], { encoding: 'utf8' })
  .split('\n')
  .filter((f) => /\.(ts|tsx|js|mjs)$/.test(f) && existsSync(f));

describe('comment links', () => {
  it('name only docs/ files that exist', () => {
    const missing: string[] = [];
    for (const file of sources) {
      for (const m of readFileSync(file, 'utf8').matchAll(/\bdocs\/[\w./-]+\.md\b/g)) {
        if (!existsSync(m[0])) missing.push(`${file}: ${m[0]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('cite no document outside the repository and no issue number', () => {
    const outside =
      /\bshared\/(api|design|spec)\/|(?<![\w/])api\/(core|clients|evaluation-and-more|wandb-graphql)\.md|\bSTYLE\.md|\bARCHITECTURE\.md|\b[Ii]ssue \d+/;
    const found = sources.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => [`${file}:${i + 1}`, line] as const)
        .filter(([, line]) => /^\s*(\*|\/\/)/.test(line) && outside.test(line))
        .map(([where]) => where),
    );
    expect(found).toEqual([]);
  });
});
