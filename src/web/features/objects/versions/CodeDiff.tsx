/**
 * How an op's source changed between two versions: a unified line diff with line numbers on
 * both sides, changes coloured, far unchanged runs folded, tokens highlighted per line.
 */
import { useQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import { CodeTokens } from '../../../components/code/CodeTokens.js';
import { guessLanguage, tokenize, type CodeLanguage } from '../../../components/code/highlight.js';
import { ErrorState } from '../../../components/ui/ErrorState.js';
import { Spinner } from '../../../components/ui/Spinner.js';
import { diffLines, foldUnchanged, type DiffHunkLine } from './lineDiff.js';
import { fileTextQueryOptions } from '../objectQueries.js';
import '../objectPage.css';

/** Props: the project and the source file of each side. */
export interface CodeDiffProps {
  projectId: string;
  before: { name: string; digest: string };
  after: { name: string; digest: string };
}

const SIGN = { same: ' ', added: '+', removed: '−' } as const;

/** Code diff. */
export function CodeDiff({ projectId, before, after }: CodeDiffProps) {
  const [a, b] = useQueries({ queries: [before, after].map((f) => fileTextQueryOptions({ projectId, digest: f.digest })) });
  const beforeText = a!.data;
  const afterText = b!.data;
  const lines = useMemo(() => {
    if (beforeText === undefined || afterText === undefined) return undefined;
    const diff = diffLines(beforeText, afterText);
    return diff && foldUnchanged(diff);
  }, [beforeText, afterText]);
  const language = afterText === undefined ? 'python' : guessLanguage(afterText);

  return (
    <section className="cdiff" aria-label="Code changes">
      <h3 className="cdiff-title">
        Code <span className="mono muted">{after.name}</span>
      </h3>
      {a!.error || b!.error ? (
        <ErrorState error={a!.error ?? b!.error} compact />
      ) : lines === undefined ? (
        <Spinner label="Loading code" />
      ) : lines === null ? (
        <p className="muted">The two files differ too much to compare line by line.</p>
      ) : (
        <pre className="cdiff-lines">
          {lines.map((line, k) => (
            <DiffRow key={k} line={line} language={language} />
          ))}
        </pre>
      )}
    </section>
  );
}

/** One line of the diff (or a fold of unchanged lines). */
function DiffRow({ line, language }: { line: DiffHunkLine; language: CodeLanguage }) {
  if (line.kind === 'fold') return <div className="cdiff-fold">⋯ {line.count.toLocaleString()} unchanged lines</div>;
  return (
    <div className={`cdiff-line ${line.kind}`}>
      <span className="cdiff-ln">{line.before ?? ''}</span>
      <span className="cdiff-ln">{line.after ?? ''}</span>
      <span className="cdiff-sign" aria-label={line.kind === 'same' ? undefined : line.kind}>
        {SIGN[line.kind]}
      </span>
      <code>
        <CodeTokens tokens={tokenize(line.text, language)} />
      </code>
    </div>
  );
}
