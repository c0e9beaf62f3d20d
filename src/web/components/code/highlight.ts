/**
 * A small tokenizer for Python and TypeScript/JavaScript, enough to colour op source code:
 * comments, strings (triple-quoted, prefixed, template), numbers, keywords, builtins, decorators,
 * definitions and calls. One linear pass with sticky regexes; no grammar, no dependency.
 */

/** What a token is, for colouring. */
export type TokenType = 'plain' | 'keyword' | 'builtin' | 'string' | 'comment' | 'number' | 'function' | 'type' | 'decorator';

/** A run of source text of one type. */
export interface Token {
  type: TokenType;
  text: string;
}

/** Languages the highlighter knows. */
export type CodeLanguage = 'python' | 'typescript';

const words = (s: string) => new Set(s.split(' '));

const PY_KEYWORDS = words(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield match case self cls',
);
const PY_BUILTINS = words(
  'print len range dict list set tuple str int float bool isinstance getattr setattr hasattr super open enumerate zip map filter sorted sum min max abs any all type object Exception ValueError TypeError KeyError',
);
const TS_KEYWORDS = words(
  'abstract as async await break case catch class const continue debugger default delete do else enum export extends false finally for from function get if implements import in instanceof interface let new null of private protected public readonly return set static super switch this throw true try type typeof undefined var void while with yield satisfies keyof declare',
);
const TS_TYPES = words('string number boolean any unknown never object bigint symbol');
const TS_BUILTINS = words(
  'console Promise Array Object String Number Boolean Map Set JSON Math Date Error RegExp Symbol BigInt parseInt parseFloat',
);

interface Rule {
  type: TokenType;
  re: RegExp;
}

const NUMBER: Rule = {
  type: 'number',
  re: /(?:0[xX][\da-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d+)?)[jJnlL]?/y,
};
const WHITESPACE: Rule = { type: 'plain', re: /\s+/y };
const IDENT = /[A-Za-z_$\u00C0-\uFFFF][\w$\u00C0-\uFFFF]*/y;

const PYTHON_RULES: Rule[] = [
  WHITESPACE,
  { type: 'comment', re: /#[^\n]*/y },
  // Triple-quoted first (they span lines), then one-line strings; r/b/f/u prefixes in any case.
  { type: 'string', re: /(?:[rRbBuUfF]{1,2})?(?:"""[\s\S]*?(?:"""|$)|'''[\s\S]*?(?:'''|$))/y },
  { type: 'string', re: /(?:[rRbBuUfF]{1,2})?(?:"(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?)/y },
  { type: 'decorator', re: /@[A-Za-z_][\w.]*/y },
  NUMBER,
];

const TS_RULES: Rule[] = [
  WHITESPACE,
  { type: 'comment', re: /\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$)/y },
  { type: 'string', re: /"(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?|`(?:[^`\\]|\\[\s\S])*`?/y },
  { type: 'decorator', re: /@[A-Za-z_][\w.]*/y },
  NUMBER,
];

function match(re: RegExp, code: string, at: number): string | null {
  re.lastIndex = at;
  const m = re.exec(code);
  return m && m[0].length > 0 ? m[0] : null;
}

/** The type of an identifier, given the previous meaningful token and what follows it. */
function classify(word: string, language: CodeLanguage, previous: string, code: string, end: number): TokenType {
  const keywords = language === 'python' ? PY_KEYWORDS : TS_KEYWORDS;
  if (keywords.has(word)) return 'keyword';
  if (previous === 'def' || previous === 'function') return 'function';
  if (previous === 'class' || previous === 'interface' || previous === 'type') return 'type';
  if (language === 'typescript' && TS_TYPES.has(word)) return 'type';
  if ((language === 'python' ? PY_BUILTINS : TS_BUILTINS).has(word)) return 'builtin';
  if (/^\s*\(/.test(code.slice(end, end + 40))) return 'function';
  if (/^[A-Z][a-z]/.test(word)) return 'type';
  return 'plain';
}

/** Splits source code into coloured tokens; concatenated, they give back the code exactly. */
export function tokenize(code: string, language: CodeLanguage): Token[] {
  const rules = language === 'python' ? PYTHON_RULES : TS_RULES;
  const tokens: Token[] = [];
  const push = (type: TokenType, text: string) => {
    const last = tokens[tokens.length - 1];
    if (last && last.type === type) last.text += text;
    else tokens.push({ type, text });
  };
  let previous = '';
  let i = 0;
  outer: while (i < code.length) {
    for (const rule of rules) {
      const text = match(rule.re, code, i);
      if (text === null) continue;
      push(rule.type, text);
      if (rule.type !== 'plain') previous = text;
      i += text.length;
      continue outer;
    }
    const word = match(IDENT, code, i);
    if (word !== null) {
      push(classify(word, language, previous, code, i + word.length), word);
      previous = word;
      i += word.length;
      continue;
    }
    push('plain', code[i]!);
    previous = code[i]!;
    i++;
  }
  return tokens;
}

/** Tokens regrouped into lines (a token spanning lines is cut at each newline). */
export function toLines(tokens: readonly Token[]): Token[][] {
  const lines: Token[][] = [[]];
  for (const token of tokens) {
    const parts = token.text.split('\n');
    parts.forEach((part, n) => {
      if (n > 0) lines.push([]);
      if (part) lines[lines.length - 1]!.push({ type: token.type, text: part });
    });
  }
  return lines;
}

/**
 * The language of op source: Python unless it reads like TypeScript/JavaScript (the TS SDK also
 * stores its ops' source as `obj.py`, so the file name alone cannot tell).
 */
export function guessLanguage(code: string): CodeLanguage {
  const head = code.slice(0, 4000);
  if (/^\s*(def|class|import|from|@)\b/m.test(head) && !/\bfunction\b|=>|\bconst\b/.test(head)) return 'python';
  if (/\bfunction\b|=>|\b(const|let)\s+\w+\s*=|;\s*$/m.test(head)) return 'typescript';
  return 'python';
}
