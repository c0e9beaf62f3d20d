#!/usr/bin/env node
/**
 * Lists the import cycles in src/: the strongly connected components (more than one file, or a
 * file importing itself) of the graph of relative imports, type-only imports included, since a
 * cycle of types still ties the files' designs together. Then the same over the dashboard's
 * features (src/web/features/<name>): no two may depend on each other. Exits 1 when there is a cycle, so
 * `npm run check` keeps the tree acyclic.
 *
 *   node scripts/import-cycles.js [root=src]
 */
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(process.argv[2] ?? 'src');

function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** `./x.js` in TypeScript source names `./x.ts` or `./x.tsx` (or a folder's index). */
function resolveImport(from, spec) {
  const base = resolve(dirname(from), spec);
  const stem = base.replace(/\.(js|jsx|ts|tsx)$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? null;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s(?:[^'"]*?\sfrom\s)?['"](\.{1,2}\/[^'"]+)['"]/g;
const DYNAMIC = /import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

const files = sourceFiles(root);
const edges = new Map();
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const targets = new Set();
  for (const re of [IMPORT, DYNAMIC]) {
    for (const m of text.matchAll(re)) {
      const target = resolveImport(file, m[1]);
      if (target) targets.add(target);
    }
  }
  edges.set(file, [...targets]);
}

/**
 * The strongly connected components of a graph that are cycles (more than one node, or a
 * self-loop): Tarjan's algorithm, iterative so deep chains cannot overflow the stack.
 */
function cyclesOf(nodes, edges) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const components = [];
  for (const start of nodes) {
    if (index.has(start)) continue;
    const work = [[start, 0]];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const frame = work[work.length - 1];
      const [node, i] = frame;
      const next = (edges.get(node) ?? [])[i];
      if (next !== undefined) {
        frame[1]++;
        if (!index.has(next)) {
          index.set(next, counter);
          low.set(next, counter++);
          stack.push(next);
          onStack.add(next);
          work.push([next, 0]);
        } else if (onStack.has(next)) {
          low.set(node, Math.min(low.get(node), index.get(next)));
        }
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === index.get(node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        const selfLoop = component.length === 1 && (edges.get(node) ?? []).includes(node);
        if (component.length > 1 || selfLoop) components.push(component);
      }
    }
  }
  return components;
}

const components = cyclesOf(files, edges);

// Two dashboard features importing each other (directly or around a longer loop) share a piece
// that belongs in src/web/entities or src/web/lib (docs/dashboard.md "Features").
const featuresDir = join(root, 'web', 'features');
const featureOf = (file) => {
  const rel = relative(featuresDir, file);
  return rel.startsWith('..') || !rel.includes('/') ? null : rel.split('/')[0];
};
const featureEdges = new Map();
for (const [file, targets] of edges) {
  const from = featureOf(file);
  if (!from) continue;
  const list = featureEdges.get(from) ?? [];
  for (const to of targets.map(featureOf)) if (to && to !== from && !list.includes(to)) list.push(to);
  featureEdges.set(from, list);
}
const featureCycles = cyclesOf([...featureEdges.keys()], featureEdges);

const edgeCount = [...edges.values()].reduce((n, list) => n + list.length, 0);
console.log(`${files.length} files, ${edgeCount} relative imports, ${components.length} import cycle(s)`);
for (const component of components) {
  console.log(
    `- ${component.length} files: ${component
      .map((f) => relative(process.cwd(), f))
      .sort()
      .join(', ')}`,
  );
}
console.log(`${featureEdges.size} dashboard features, ${featureCycles.length} cycle(s) between features`);
for (const component of featureCycles) console.log(`- features ${component.sort().join(', ')}`);
process.exitCode = components.length || featureCycles.length ? 1 : 0;
