import { describe, expect, it } from 'vitest';
import { guessLanguage, tokenize, toLines, type Token } from './highlight.js';

const typed = (tokens: Token[]) => tokens.filter((t) => t.type !== 'plain').map((t) => `${t.type}:${t.text}`);

describe('tokenize', () => {
  it('colours Python: keywords, definitions, decorators, strings, comments, numbers', () => {
    const code = '@weave.op()\ndef answer(q: str) -> dict:\n    # think\n    return {"a": f"x{q}", "n": 1.5e3}\n';
    expect(typed(tokenize(code, 'python'))).toEqual([
      'decorator:@weave.op',
      'keyword:def',
      'function:answer',
      'builtin:str',
      'builtin:dict',
      'comment:# think',
      'keyword:return',
      'string:"a"',
      'string:f"x{q}"',
      'string:"n"',
      'number:1.5e3',
    ]);
  });

  it('keeps triple-quoted strings whole across lines', () => {
    const tokens = tokenize('s = """one\ntwo"""\nx = 1', 'python');
    expect(tokens.find((t) => t.type === 'string')?.text).toBe('"""one\ntwo"""');
  });

  it('colours TypeScript: comments, template strings, calls, types', () => {
    const code = 'const f = async (q: string) => { /* c */ return `x${q}`; }; // end\nfunction g() {}\nnew Map()';
    expect(typed(tokenize(code, 'typescript'))).toEqual([
      'keyword:const',
      'keyword:async',
      'type:string',
      'comment:/* c */',
      'keyword:return',
      'string:`x${q}`',
      'comment:// end',
      'keyword:function',
      'function:g',
      'keyword:new',
      'builtin:Map',
    ]);
  });

  it('gives back the exact source, even unterminated strings', () => {
    for (const code of ['x = "open\ny = 2', "a = '''never closed", 'const s = `oops', 'weird ☃ chars ü = 3']) {
      expect(
        tokenize(code, 'python')
          .map((t) => t.text)
          .join(''),
      ).toBe(code);
      expect(
        tokenize(code, 'typescript')
          .map((t) => t.text)
          .join(''),
      ).toBe(code);
    }
  });
});

describe('toLines', () => {
  it('cuts multi-line tokens at newlines', () => {
    const lines = toLines([
      { type: 'string', text: '"""a\nb"""' },
      { type: 'plain', text: '\n' },
    ]);
    expect(lines.map((l) => l.map((t) => t.text).join(''))).toEqual(['"""a', 'b"""', '']);
  });
});

describe('guessLanguage', () => {
  it('tells Python from TypeScript', () => {
    expect(guessLanguage('import weave\n\ndef f():\n    return 1\n')).toBe('python');
    expect(guessLanguage('async function answer(q) {\n  return q;\n}')).toBe('typescript');
    expect(guessLanguage('(q) => q.trim()')).toBe('typescript');
  });
});
