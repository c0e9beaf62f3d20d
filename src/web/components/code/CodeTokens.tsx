/** Coloured tokens of source text (highlight.ts), for code shown outside CodeView (diffs). */
import type { Token } from './highlight.js';
import './code.css';

/** Renders tokens: plain text as is, the rest in `tok-<type>` spans. */
export function CodeTokens({ tokens }: { tokens: readonly Token[] }) {
  return (
    <>
      {tokens.map((t, i) =>
        t.type === 'plain' ? (
          t.text
        ) : (
          <span key={i} className={`tok-${t.type}`}>
            {t.text}
          </span>
        ),
      )}
    </>
  );
}
