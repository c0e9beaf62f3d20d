/**
 * The stylesheet check (scripts/check-styles.ts, docs/dashboard.md "Styles"): what it reads from
 * components and stylesheets, and that it fails on a class whose stylesheet another page loads.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkStyles, classesUsed, readStylesheet, relativeImports } from '../../scripts/check-styles.js';

describe('classesUsed', () => {
  it('reads static class names from literals, templates, ternaries and clsx-like calls', () => {
    const source = [
      'export function A({ on, kind }: { on: boolean; kind: string }) {',
      '  return (',
      '    <div className="one two">',
      "      <span className={on ? 'three' : 'four'} />",
      '      <span className={`five ${on ? "six" : ""} part-${kind} seven`} />',
      "      <span className={cx('eight', on && 'nine', { ten: on })} />",
      "      <span className={kind === 'not-a-class' ? 'eleven' : undefined} />",
      "      <Table rowClassName={['twelve', on ? 'thirteen' : ''].join(' ')} />",
      '    </div>',
      '  );',
      '}',
    ].join('\n');
    const uses = classesUsed(source);
    expect(uses.map((u) => u.name).sort()).toEqual(
      ['eight', 'eleven', 'five', 'four', 'nine', 'one', 'seven', 'six', 'ten', 'thirteen', 'three', 'twelve', 'two'].sort(),
    );
    expect(uses.find((u) => u.name === 'five')?.line).toBe(5);
  });
});

describe('relativeImports', () => {
  it('follows side-effect and value imports and re-exports, not type-only ones', () => {
    const source = [
      "import './a.css';",
      "import { x } from './b.js';",
      "import type { T } from './c.js';",
      "import { useState } from 'react';",
      "export { y } from '../d.js';",
      "export type { U } from './e.js';",
    ].join('\n');
    expect(relativeImports(source)).toEqual(['./a.css', './b.js', '../d.js']);
  });
});

describe('readStylesheet', () => {
  it('tells definitions from refinements under a class the sheet owns', () => {
    const sheet = readStylesheet(`
      /* .commented { } */
      .login-card { padding: 4px; }
      .login-card .button, .login-card a.button:hover { width: 100%; }
      .turn-bar.running { opacity: 1; }
      .app .review-page { overflow: auto; }
      @media (max-width: 720px) { .login-card { padding: 0; } }
      .panel:has(.login-card) { gap: 2px; }
      .x { background: url('a.png'); }
    `);
    expect([...sheet.defines].sort()).toEqual(['app', 'login-card', 'turn-bar', 'x']);
    expect([...sheet.mentions].sort()).toEqual(['app', 'button', 'login-card', 'panel', 'review-page', 'running', 'turn-bar', 'x']);
  });
});

describe('checkStyles', () => {
  let root = '';
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('fails a component whose stylesheet only its page imports, and passes once it imports it', () => {
    root = mkdtempSync(join(tmpdir(), 'weft-styles-'));
    write('styles.css', '.button { color: red; }');
    write('feature/feature.css', '.feature-list { gap: 4px; }\n.feature-row { padding: 2px; }');
    write(
      'feature/Page.tsx',
      "import './feature.css';\nimport { Row } from './Row.js';\nexport const Page = () => <ul className=\"feature-list\"><Row /></ul>;\n",
    );
    write('feature/Row.tsx', 'export const Row = () => (\n  <li className="feature-row"><button className="button" /></li>\n);\n');
    const before = checkStyles(root, undefined, new Set());
    expect(before.missing.map((m) => [m.file, m.line, m.name, m.definedIn])).toEqual([
      [join(root, 'feature/Row.tsx'), 2, 'feature-row', [join(root, 'feature/feature.css')]],
    ]);

    write('feature/Row.tsx', 'import \'./feature.css\';\nexport const Row = () => <li className="feature-row" />;\n');
    expect(checkStyles(root, undefined, new Set()).missing).toEqual([]);
  });

  it('fails a class used but defined nowhere, and lists a class two stylesheets define', () => {
    root = mkdtempSync(join(tmpdir(), 'weft-styles-'));
    write('styles.css', '.tab { color: red; }');
    write('other/other.css', '.tab.active { color: blue; }\n.other .tab { gap: 1px; }');
    write('other/Tabs.tsx', 'import \'./other.css\';\nexport const Tabs = () => <div className="tab tabz" />;\n');
    const report = checkStyles(root, undefined, new Set());
    expect(report.missing.map((m) => m.name)).toEqual(['tabz']);
    expect([...report.duplicates]).toEqual([['tab', [join(root, 'other/other.css'), join(root, 'styles.css')]]]);
  });
});
