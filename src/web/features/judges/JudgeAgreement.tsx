/**
 * "Agreement with reviewers" on the Judges page: for each scorer whose output field has a human
 * question of the same name, how often the two agree (percent, Cohen's κ, Krippendorff's α), the
 * confusion matrix, and the calls they disagree on, ready to send to a review queue
 * (docs/judge-agreement.md).
 */
import { useQuery } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { Link } from 'react-router-dom';
import { ListTable } from '../../components/table/ListTable.js';
import { formatInteger } from '../../lib/format.js';
import { AddToQueueMenu } from '../annotation/queues/AddToQueueMenu.js';
import { useCan } from '../auth/useCan.js';
import { agreementQueryOptions, type AgreementRow } from './judgeQueries.js';
import './judges.css';

const ratio = (v: number | null) => (v === null ? '—' : v.toFixed(2));
const percent = (v: number | null) => (v === null ? '—' : `${Math.round(v * 100)}%`);
/** Krippendorff's reading of κ and α: ≥ 0.8 reliable, ≥ 0.667 tentative, below that not. */
const verdict = (v: number | null) => (v === null ? 'undefined' : v >= 0.8 ? 'reliable' : v >= 0.667 ? 'tentative' : 'needs work');
const rowKey = (r: AgreementRow) => `${r.feedback_type}\n${r.field ?? ''}\n${r.question}`;

export function JudgeAgreement({ projectId }: { projectId: string }) {
  const agreement = useQuery(agreementQueryOptions(projectId));
  const [open, setOpen] = useState<string | null>(null);
  return (
    <section className="card" aria-label="Agreement with reviewers">
      <h2>Agreement with reviewers</h2>
      <p className="muted small">
        Where a judge&apos;s output field and a review question share a name, their answers on the same calls are compared. κ and α correct
        for chance: 0.8 or more is reliable, below 0.67 the judge or the question needs work.
      </p>
      <ListTable
        items={agreement.data?.judges}
        pending={agreement.isPending}
        error={agreement.error}
        onRetry={() => void agreement.refetch()}
        noun="judges with reviewed calls"
        label="Agreement with reviewers"
        head={
          <>
            <th>Scorer</th>
            <th>Question</th>
            <th className="num">Calls</th>
            <th className="num">Agreement</th>
            <th className="num">κ</th>
            <th className="num">α</th>
            <th />
          </>
        }
        row={(r) => {
          const key = rowKey(r);
          return (
            <Fragment key={key}>
              <tr>
                <td className="mono">
                  {r.scorer}
                  {r.field ? `.${r.field}` : ''}
                </td>
                <td className="mono">{r.question}</td>
                <td className="num">
                  {formatInteger(r.calls)}
                  <span className="muted small"> · {formatInteger(r.reviewers)} reviewers</span>
                </td>
                <td className="num">{percent(r.percent_agreement)}</td>
                <td className="num" title={verdict(r.kappa)}>
                  {ratio(r.kappa)}
                </td>
                <td className="num" title={verdict(r.alpha)}>
                  {ratio(r.alpha)}
                </td>
                <td>
                  <button
                    type="button"
                    className="button small"
                    aria-expanded={open === key}
                    aria-label={`Details of ${r.scorer} against ${r.question}`}
                    onClick={() => setOpen(open === key ? null : key)}
                  >
                    {open === key ? 'Hide' : 'Details'}
                  </button>
                </td>
              </tr>
              {open === key && (
                <tr className="agreement-details">
                  <td colSpan={7}>
                    <AgreementDetails projectId={projectId} row={r} />
                  </td>
                </tr>
              )}
            </Fragment>
          );
        }}
      />
    </section>
  );
}

function AgreementDetails({ projectId, row }: { projectId: string; row: AgreementRow }) {
  const ids = row.disagreements.map((d) => d.call_id);
  const canQueue = useCan(projectId)('annotationQueueAddCalls').allowed;
  return (
    <div className="agreement-panel">
      <table className="confusion" aria-label={`Confusion matrix of ${row.scorer}`}>
        <caption className="small muted">Rows: the judge&apos;s answer · columns: reviewers&apos;</caption>
        <thead>
          <tr>
            <th />
            {row.confusion.labels.map((l) => (
              <th key={l} className="mono" scope="col">
                {l}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {row.confusion.labels.map((l, i) => (
            <tr key={l}>
              <th className="mono" scope="row">
                {l}
              </th>
              {row.confusion.counts[i]!.map((n, j) => (
                <td key={j} className={i === j ? 'num agree' : n > 0 ? 'num disagree' : 'num'}>
                  {formatInteger(n)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <div className="disagreements">
        <div className="row-actions">
          <strong>
            {formatInteger(row.disagreements.length)} disagreeing call{row.disagreements.length === 1 ? '' : 's'}
          </strong>
          {ids.length > 0 && canQueue && (
            <AddToQueueMenu
              projectId={projectId}
              req={{ project_id: projectId, filter: { call_ids: ids } }}
              total={ids.length}
              selectedIds={ids}
            />
          )}
        </div>
        <ul aria-label={`Calls where reviewers disagree with ${row.scorer}`}>
          {row.disagreements.map((d) => (
            <li key={d.call_id}>
              <Link className="mono" to={`/${projectId}/calls/${d.call_id}`}>
                {d.call_id}
              </Link>{' '}
              judge <span className="mono">{JSON.stringify(d.scorer)}</span>,{' '}
              {d.reviewers.map((h) => `${h.annotator} ${JSON.stringify(h.value)}`).join(', ')}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
