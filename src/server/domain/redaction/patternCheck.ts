/**
 * Refuses custom patterns that could stall ingest (docs/security/redaction.md "Custom patterns").
 * JavaScript cannot interrupt a running regular expression, so a pattern with catastrophic
 * backtracking would hold a request thread for minutes on one crafted string. Every custom
 * pattern is therefore checked once, when the rule is added, and never run at ingest unless it
 * passed:
 *
 * 1. it compiles, is at most MAX_REGEX_LENGTH characters, and cannot match the empty string;
 * 2. by its structure: no back-references, and no repeated group that itself holds a repetition
 *    (`(a+)+`, `(\w*)*`, `(?:x|y+){2,}`), the shape behind most exponential patterns;
 * 3. by trying it: in a separate thread, against strings built to make ambiguous patterns
 *    backtrack (each character the pattern names, repeated, then a character that breaks the
 *    match), with a time budget; a pattern that does not finish in time is refused.
 *
 * No package does this here (none is installed); the check is written against the two shapes
 * above and the trial run catches the rest of the common ones, like `(a|a)*` or `(a|ab)*c`.
 */
import { Worker } from 'node:worker_threads';
import { MAX_REGEX_LENGTH, shapeProblem } from '../../../contract/redaction.js';

/** How long the trial run may take over all its strings. */
export const TRIAL_BUDGET_MS = 250;

/** Why the pattern is refused, or null when it may be used. */
export async function patternProblem(source: string): Promise<string | null> {
  if (source.length > MAX_REGEX_LENGTH) return `the pattern is longer than ${MAX_REGEX_LENGTH} characters`;
  let re: RegExp;
  try {
    re = new RegExp(source, 'g');
  } catch (err) {
    return `it is not a valid JavaScript regular expression (${(err as Error).message})`;
  }
  if (new RegExp(source).test('')) return 'it matches the empty string, so it would put markers everywhere';
  const shape = shapeProblem(source);
  if (shape) return shape;
  return trial(re.source);
}

/** Strings that make an ambiguous pattern backtrack: each character it names, repeated, then a breaker. */
function trialStrings(source: string): string[] {
  const chars = new Set<string>(['a', '0', ' ', 'A', '_', '.', '-']);
  for (const m of source.matchAll(/\\(.)|([^\\[\](){}*+?|^$])/g)) {
    const ch = m[1] ?? m[2]!;
    const escaped = m[1] !== undefined;
    if (!escaped) chars.add(ch);
    else if (ch === 'd') chars.add('1');
    else if (ch === 'w') chars.add('w');
    else if (ch === 's') chars.add('\t');
    else if (!/[a-zA-Z0-9]/.test(ch)) chars.add(ch);
  }
  const units = [...chars].slice(0, 40);
  const pairs = units.flatMap((a) => units.slice(0, 8).map((b) => a + b)).slice(0, 120);
  const out: string[] = [];
  for (const u of [...units, ...pairs]) for (const breaker of ['!', '\n', '\u0000']) out.push(u.repeat(Math.ceil(40 / u.length)) + breaker);
  for (const u of units) out.push(u.repeat(5000) + '!');
  return out;
}

const TRIAL_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const re = new RegExp(workerData.source, 'g');
for (const s of workerData.strings) { re.lastIndex = 0; s.replace(re, ''); }
parentPort.postMessage('done');
`;

function trial(source: string): Promise<string | null> {
  const strings = trialStrings(source);
  return new Promise((resolve) => {
    const worker = new Worker(TRIAL_CODE, { eval: true, workerData: { source, strings } });
    // Timed from when the thread runs, so a slow thread start is not blamed on the pattern.
    let timer: NodeJS.Timeout | undefined;
    worker.once('online', () => {
      timer = setTimeout(() => {
        void worker.terminate();
        resolve(
          `it did not finish within ${TRIAL_BUDGET_MS} ms on strings built to make patterns backtrack (such as one character repeated 5,000 times, then "!"), so it could stall ingest; anchor it or bound its repetitions (\\w{1,64} rather than \\w+ or .*)`,
        );
      }, TRIAL_BUDGET_MS);
    });
    worker.once('message', () => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(null);
    });
    worker.once('error', (err) => {
      clearTimeout(timer);
      resolve(`it failed on a test string (${err.message})`);
    });
  });
}
