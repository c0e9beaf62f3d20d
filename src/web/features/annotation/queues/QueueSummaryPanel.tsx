/**
 * What a queue lead checks first: how far each reviewer got, and per question how the answers
 * fall (a bar per value, the mean for scores, and how often reviewers agree where several
 * answered the same item).
 */
import type { z } from 'zod';
import type { AnnotationQueueSummaryRes } from '../../../../contract/annotationQueueLeads.js';
import { formatInteger } from '../../../lib/format.js';
import { CompletionBar } from '../CompletionBar.js';
import { distributionRows } from './answerDistribution.js';
import type { QueueField } from '../queueFields.js';
import '../annotation.css';

type Summary = z.infer<typeof AnnotationQueueSummaryRes>;

const shownValue = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'boolean' ? (v ? 'Yes' : 'No') : JSON.stringify(v));
const fixed = (n: number | null) => (n === null ? '—' : Number.isInteger(n) ? String(n) : n.toFixed(2));

/** Per-reviewer progress and per-question distributions. */
export function QueueSummaryPanel({ summary, fields }: { summary: Summary; fields: QueueField[] }) {
  const nameOf = (ref: string) => fields.find((f) => f.ref === ref)?.name ?? ref;
  return (
    <div className="queue-summary">
      <section className="queue-card" aria-labelledby="reviewers-title">
        <h2 id="reviewers-title">Reviewers</h2>
        {summary.reviewers.length === 0 ? (
          <p className="muted">Nobody has reviewed an item yet.</p>
        ) : (
          <div className="queue-table-scroll">
            <table className="simple-table" aria-label="Reviewer progress">
              <thead>
                <tr>
                  <th>Reviewer</th>
                  <th className="progress-col">Completed</th>
                  <th className="num">Skipped</th>
                  <th className="num">Holding</th>
                </tr>
              </thead>
              <tbody>
                {summary.reviewers.map((r) => (
                  <tr key={r.annotator}>
                    <td>{r.annotator}</td>
                    <td>
                      <CompletionBar done={r.completed} total={summary.total_items} label={`${r.annotator} progress`} />
                    </td>
                    <td className="num">{formatInteger(r.skipped)}</td>
                    <td className="num" title="Items reserved for this reviewer right now">
                      {formatInteger(r.reserved)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <p className="muted small">
          {summary.reviewers_per_item === 1
            ? 'One reviewer per item.'
            : `${summary.reviewers_per_item} reviewers per item: ${formatInteger(summary.fully_reviewed_items)} of ${formatInteger(
                summary.total_items,
              )} items have them all.`}
        </p>
      </section>
      {summary.questions.map((q) => {
        const kind = fields.find((f) => f.ref === q.annotation_ref)?.kind ?? ({ kind: 'unsupported' } as const);
        const rows = distributionRows(q.counts, kind);
        const top = Math.max(1, ...rows.map((c) => c.count));
        return (
          <section key={q.annotation_ref} className="queue-card" aria-label={`Answers to ${nameOf(q.annotation_ref)}`}>
            <h2>{nameOf(q.annotation_ref)}</h2>
            <p className="muted small">
              {formatInteger(q.answered)} {q.answered === 1 ? 'answer' : 'answers'}
              {q.mean !== null && ` · mean ${fixed(q.mean)} (${fixed(q.min)}–${fixed(q.max)})`}
              {q.agreement !== null && ` · reviewers agree on ${Math.round(q.agreement * 100)} % of shared items`}
              {q.kappa !== null && ` · Cohen's κ ${q.kappa.toFixed(2)}`}
              {q.alpha !== null && ` · Krippendorff's α ${q.alpha.toFixed(2)}`}
            </p>
            {q.counts.length > 0 && (
              <ul className="distribution">
                {rows.map((c) => (
                  <li key={JSON.stringify(c.value)}>
                    <span className="distribution-label ellipsis">{shownValue(c.value)}</span>
                    <span className="distribution-bar" aria-hidden="true">
                      <span style={{ width: `${(c.count / top) * 100}%` }} />
                    </span>
                    <span className="distribution-count">{formatInteger(c.count)}</span>
                  </li>
                ))}
              </ul>
            )}
          </section>
        );
      })}
    </div>
  );
}
