/** Source code with line numbers and token colours (highlight.ts); very long files are cut. */
import { useMemo } from 'react';
import { CopyButton } from '../ui/CopyButton.js';
import { CodeTokens } from './CodeTokens.js';
import { guessLanguage, tokenize, toLines, type CodeLanguage } from './highlight.js';
import './code.css';

/** Lines drawn at most; beyond, the rest is one plain block (still copyable). */
const MAX_LINES = 5000;

/** Props of CodeView: the code, its language (guessed when absent), a name for the region. */
export interface CodeViewProps {
  code: string;
  language?: CodeLanguage;
  ariaLabel: string;
  /** Shown in the header bar, e.g. the file name. */
  title?: string;
}

/** Highlighted, line-numbered code. */
export function CodeView({ code, language, ariaLabel, title }: CodeViewProps) {
  const lang = language ?? guessLanguage(code);
  const lines = useMemo(() => {
    const all = toLines(tokenize(code, lang));
    // A final newline ends the last line; it does not start another.
    return all.length > 1 && all[all.length - 1]!.length === 0 ? all.slice(0, -1) : all;
  }, [code, lang]);
  const shown = lines.slice(0, MAX_LINES);
  return (
    <div className="codeview">
      <div className="codeview-bar">
        {title && <span className="mono">{title}</span>}
        <span className="muted small">
          {lang === 'python' ? 'Python' : 'TypeScript / JavaScript'} · {lines.length.toLocaleString()} lines
        </span>
        <span className="spacer" />
        <CopyButton text={code} label="Copy code" />
      </div>
      <pre className="codeview-scroll" aria-label={ariaLabel} tabIndex={0}>
        <code>
          {shown.map((line, n) => (
            <span key={n} className="codeview-line">
              <span className="codeview-ln" aria-hidden="true">
                {n + 1}
              </span>
              <CodeTokens tokens={line} />
              {'\n'}
            </span>
          ))}
          {lines.length > MAX_LINES && (
            <span className="muted">… {(lines.length - MAX_LINES).toLocaleString()} more lines (use Copy code for all)</span>
          )}
        </code>
      </pre>
    </div>
  );
}
