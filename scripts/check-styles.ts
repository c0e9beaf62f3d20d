#!/usr/bin/env -S npx tsx
/**
 * Styles belong to their component (docs/dashboard.md "Styles"): every class a dashboard component
 * names must be defined by a stylesheet that is loaded whenever the component is, i.e. one it
 * imports, one imported by a module it imports (static, relative, not type-only, transitively),
 * or the global src/web/styles.css. A stylesheet reached only through another page's chunk is
 * missing on a direct link. Also lists class names defined by more than one stylesheet, which
 * depend on which one loaded last. Exits 1 on either, so `npm run check` keeps both at zero.
 * `--mentions` also lists the classes several stylesheets mention (definitions and refinements).
 *
 *   npx tsx scripts/check-styles.ts [root=src/web] [--mentions]
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export interface ClassUse {
  name: string;
  line: number;
}

/**
 * Names components use that no stylesheet styles: hooks for tests and readers. A new unstyled
 * name goes here on purpose; anything else unstyled is a typo or a stylesheet left unloaded.
 */
export const UNSTYLED = new Set([
  'call-field',
  'chart-lone-point',
  'check',
  'checkbox',
  'chip-remove',
  'dashboard-page',
  'dashboard-toolbar',
  'distribution-label',
  'dt-header-row',
  'eval-compare-toolbar',
  'eval-row-scores',
  'eval-value',
  'filter-value-none',
  'playground-messages',
  'playground-page',
  'playground-prompt',
  'question-list',
  'queue-dialog',
  'queues-page',
  'reaction-glyph',
  'reaction-icon',
  'reply',
  'settings-facts',
]);

/** Attributes that carry class names: className, and props such as rowClassName passed on. */
const CLASS_ATTRIBUTE = /^(className|[a-z]\w*ClassName)$/;

/** Class tokens of a static string; with `partial` edges, a token touching a `${…}` is dropped. */
function tokens(text: string, openStart = false, openEnd = false): string[] {
  const parts = text.split(/\s+/);
  if (openStart && !/^\s/.test(text)) parts.shift();
  if (openEnd && !/\s$/.test(text)) parts.pop();
  return parts.filter((t) => /^-?[_a-zA-Z][\w-]*$/.test(t));
}

/**
 * The static class names in a className expression: string literals and the static words of
 * template literals, through ternaries, `&&`, `||`, `??`, calls (clsx-like) and arrays, never
 * the operands of a comparison or a ternary's condition.
 */
function classesOfExpression(node: ts.Node, out: (name: string, at: ts.Node) => void): void {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
    for (const t of tokens(node.text)) out(t, node);
  } else if (ts.isTemplateExpression(node)) {
    for (const t of tokens(node.head.text, false, true)) out(t, node);
    node.templateSpans.forEach((span, i) => {
      classesOfExpression(span.expression, out);
      const last = i === node.templateSpans.length - 1;
      for (const t of tokens(span.literal.text, true, !last)) out(t, span.literal);
    });
  } else if (ts.isConditionalExpression(node)) {
    classesOfExpression(node.whenTrue, out);
    classesOfExpression(node.whenFalse, out);
  } else if (ts.isBinaryExpression(node)) {
    const op = node.operatorToken.kind;
    if (op === ts.SyntaxKind.AmpersandAmpersandToken) classesOfExpression(node.right, out);
    else if (op === ts.SyntaxKind.BarBarToken || op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.PlusToken) {
      classesOfExpression(node.left, out);
      classesOfExpression(node.right, out);
    }
  } else if (ts.isParenthesizedExpression(node) || ts.isJsxExpression(node)) {
    if (node.expression) classesOfExpression(node.expression, out);
  } else if (ts.isCallExpression(node)) {
    // cx('a', on && 'b', list.join(' ')): the arguments, not the callee.
    const callee = node.expression;
    if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'join') classesOfExpression(callee.expression, out);
    else for (const arg of node.arguments) classesOfExpression(arg, out);
  } else if (ts.isArrayLiteralExpression(node)) {
    for (const el of node.elements) classesOfExpression(el, out);
  } else if (ts.isObjectLiteralExpression(node)) {
    // clsx({ active: on }): the keys are the classes.
    for (const p of node.properties) {
      if (p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) {
        for (const t of tokens(p.name.text)) out(t, p.name);
      }
    }
  }
}

/** The static class names a .tsx file puts in className-like attributes, with their lines. */
export function classesUsed(source: string, fileName = 'component.tsx'): ClassUse[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const uses: ClassUse[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isJsxAttribute(node) && ts.isIdentifier(node.name) && CLASS_ATTRIBUTE.test(node.name.text) && node.initializer) {
      classesOfExpression(node.initializer, (name, at) => {
        uses.push({ name, line: file.getLineAndCharacterOfPosition(at.getStart(file)).line + 1 });
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return uses;
}

/** Relative modules a file loads with it: static imports and re-exports, not `import type`. */
export function relativeImports(source: string, fileName = 'module.tsx'): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX);
  const specs: string[] = [];
  for (const st of file.statements) {
    let spec: ts.Expression | undefined;
    if (ts.isImportDeclaration(st) && !st.importClause?.isTypeOnly) spec = st.moduleSpecifier;
    else if (ts.isExportDeclaration(st) && !st.isTypeOnly) spec = st.moduleSpecifier;
    if (spec && ts.isStringLiteral(spec) && spec.text.startsWith('.')) specs.push(spec.text);
  }
  return specs;
}

function withoutComments(css: string): string {
  return css.replace(/\/\*[\s\S]*?\*\//g, '');
}

/** Splits a selector list on its top-level commas (not those inside `:is(…)`). */
function selectorList(prelude: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < prelude.length; i++) {
    const c = prelude[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      out.push(prelude.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(prelude.slice(start).trim());
  return out.filter(Boolean);
}

const CLASS = /\.(-?[_a-zA-Z][\w-]*)/g;
const classesIn = (selector: string) => [...selector.matchAll(CLASS)].map((m) => m[1]!);

export interface Stylesheet {
  /** Every class its selectors mention, anywhere: what a component may use once it is loaded. */
  mentions: Set<string>;
  /**
   * The classes it defines, which no other stylesheet may: the first class of each unscoped
   * selector (`.x`, `.x:hover`, `button.x.active`), and of each scoped one that mentions none of
   * those (`.app .review-page` in a sheet that owns nothing there). `.login-card .button` is a
   * refinement of `.button` under the sheet's own `.login-card`, not a definition.
   */
  defines: Set<string>;
}

/** Reads a stylesheet's selectors (nested rules too; at-rule preludes skipped). */
export function readStylesheet(css: string): Stylesheet {
  const selectors: string[] = [];
  const text = withoutComments(css).replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""');
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '{') {
      const prelude = text.slice(start, i).trim();
      if (!prelude.startsWith('@')) selectors.push(...selectorList(prelude));
      start = i + 1;
    } else if (c === '}' || c === ';') start = i + 1;
  }
  const mentions = new Set(selectors.flatMap(classesIn));
  const defines = new Set<string>();
  const scoped: string[] = [];
  for (const selector of selectors) {
    const outer = selector.replace(/\((?:[^()]|\([^()]*\))*\)/g, '()');
    const unscoped = !/[\s>+~]/.test(outer.trim()) && classesIn(outer).length === classesIn(selector).length;
    const first = classesIn(selector)[0];
    if (!first) continue;
    if (unscoped) defines.add(first);
    else scoped.push(selector);
  }
  const owned = new Set(defines);
  for (const selector of scoped) {
    const classes = classesIn(selector);
    if (!classes.some((c) => owned.has(c))) defines.add(classes[0]!);
  }
  return { mentions, defines };
}

export function cssImports(css: string): string[] {
  return [...withoutComments(css).matchAll(/@import\s+(?:url\()?['"]([^'"]+)['"]/g)].map((m) => m[1]!);
}

/** `./x.js` in TypeScript source names `./x.ts` or `./x.tsx` (or a folder's index). */
function resolveModule(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec.replace(/\?.*$/, ''));
  if (base.endsWith('.css')) return existsSync(base) ? base : null;
  const stem = base.replace(/\.(js|jsx|ts|tsx)$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? null;
}

function filesUnder(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path, pattern);
    return pattern.test(name) ? [path] : [];
  });
}

export interface Missing {
  file: string;
  line: number;
  name: string;
  /** Stylesheets that define the class, none of them loaded with the file. */
  definedIn: string[];
}

export interface StyleReport {
  components: number;
  stylesheets: number;
  missing: Missing[];
  /** Class names defined by more than one stylesheet (Stylesheet.defines), with those stylesheets. */
  duplicates: Map<string, string[]>;
  /** Class names mentioned by more than one stylesheet: definitions and scoped refinements. */
  sharedMentions: Map<string, string[]>;
}

/** Checks every .tsx file under `root` against the stylesheets it loads and `globals`. */
export function checkStyles(root: string, globals: string[] = [join(root, 'styles.css')], unstyled: Set<string> = UNSTYLED): StyleReport {
  const sheets = new Map<string, Stylesheet & { imports: string[] }>();
  const sheet = (path: string) => {
    let s = sheets.get(path);
    if (!s) {
      const css = readFileSync(path, 'utf8');
      s = {
        ...readStylesheet(css),
        imports: cssImports(css).flatMap((spec) => resolveModule(path, spec) ?? []),
      };
      sheets.set(path, s);
    }
    return s;
  };
  const edges = new Map<string, string[]>();
  const importsOf = (path: string): string[] => {
    let list = edges.get(path);
    if (!list) {
      list = path.endsWith('.css')
        ? sheet(path).imports
        : relativeImports(readFileSync(path, 'utf8'), path).flatMap((spec) => resolveModule(path, spec) ?? []);
      edges.set(path, list);
    }
    return list;
  };
  const loadedSheets = (start: string[]): Set<string> => {
    const seen = new Set<string>();
    const stack = [...start];
    while (stack.length) {
      const path = stack.pop()!;
      if (seen.has(path)) continue;
      seen.add(path);
      stack.push(...importsOf(path));
    }
    return new Set([...seen].filter((p) => p.endsWith('.css')));
  };

  const allSheets = filesUnder(root, /\.css$/);
  const definers = new Map<string, string[]>();
  const mentioners = new Map<string, string[]>();
  for (const path of allSheets) {
    for (const name of sheet(path).defines) definers.set(name, [...(definers.get(name) ?? []), path]);
    for (const name of sheet(path).mentions) mentioners.set(name, [...(mentioners.get(name) ?? []), path]);
  }
  const global = loadedSheets(globals);
  const components = filesUnder(root, /\.tsx$/).filter((f) => !/\.test\.tsx$/.test(f));
  const missing: Missing[] = [];
  for (const file of components) {
    const uses = classesUsed(readFileSync(file, 'utf8'), file);
    if (!uses.length) continue;
    const loaded = loadedSheets([file, ...global]);
    const defined = new Set([...loaded].flatMap((p) => [...sheet(p).mentions]));
    for (const use of uses) {
      if (!defined.has(use.name) && !unstyled.has(use.name))
        missing.push({ file, ...use, definedIn: definers.get(use.name) ?? mentioners.get(use.name) ?? [] });
    }
  }
  const several = (map: Map<string, string[]>) =>
    new Map([...map].filter(([, paths]) => paths.length > 1).sort(([a], [b]) => a.localeCompare(b)));
  return {
    components: components.length,
    stylesheets: allSheets.length,
    missing,
    duplicates: several(definers),
    sharedMentions: several(mentioners),
  };
}

function main(): void {
  const args = process.argv.slice(2);
  const root = resolve(args.find((a) => !a.startsWith('--')) ?? 'src/web');
  const rel = (p: string) => relative(process.cwd(), p);
  const report = checkStyles(root);
  for (const m of report.missing) {
    const hint = m.definedIn.length
      ? `import the stylesheet that defines it (${m.definedIn.map(rel).join(', ')})`
      : 'define it in the component’s stylesheet, or list it in UNSTYLED if it is only a hook';
    console.log(`${rel(m.file)}:${m.line}: class "${m.name}" is defined by no stylesheet this file loads: ${hint}`);
  }
  for (const [name, paths] of report.duplicates) {
    console.log(`class "${name}" is defined in ${paths.length} stylesheets: ${paths.map(rel).join(', ')}; keep one owner`);
  }
  if (args.includes('--mentions')) {
    for (const [name, paths] of report.sharedMentions) console.log(`class "${name}" is mentioned in ${paths.map(rel).join(', ')}`);
  }
  console.log(
    `${report.components} components, ${report.stylesheets} stylesheets, ${report.missing.length} class(es) used without their stylesheet, ${report.duplicates.size} class name(s) in more than one stylesheet`,
  );
  process.exitCode = report.missing.length || report.duplicates.size ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
