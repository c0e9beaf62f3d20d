/**
 * The rows that differ between two versions of a dataset (docs/datasets.md "Dataset page"):
 * rows matched by digest, then by position; added, removed and changed rows listed with their
 * positions, the changed cells highlighted with the value before and after.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { previewValue } from '../../components/table/ValueCell.js';
import { ErrorState } from '../../components/ui/ErrorState.js';
import { Spinner } from '../../components/ui/Spinner.js';
import { formatInteger, plural } from '../../lib/format.js';
import { columnNames, diffCounts, diffRows, type RowDiff } from './datasetModel.js';
import { allRowsQueryOptions } from './datasetQueries.js';
import './datasets.css';

/** Diff lines listed at most; the counts cover all of them. */
const MAX_SHOWN = 500;

const field = (v: unknown, key: string): unknown => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[key] : undefined);

export function DatasetDiff({
  projectId,
  from,
  to,
}: {
  projectId: string;
  from: { label: string; tableDigest: string };
  to: { label: string; tableDigest: string };
}) {
  const a = useQuery(allRowsQueryOptions(projectId, from.tableDigest));
  const b = useQuery(allRowsQueryOptions(projectId, to.tableDigest));
  const diff = useMemo(() => (a.data && b.data ? diffRows(a.data, b.data) : undefined), [a.data, b.data]);
  const changes = useMemo(() => diff?.filter((d) => d.kind !== 'same') ?? [], [diff]);
  const columns = useMemo(
    () => columnNames(changes.flatMap((d) => [d.kind !== 'added' ? d.before.val : null, d.kind !== 'removed' ? d.after.val : null])),
    [changes],
  );

  if (a.error || b.error) return <ErrorState error={a.error ?? b.error} compact />;
  if (diff === undefined) return <Spinner showLabel label="Comparing rows" />;
  const counts = diffCounts(diff);

  return (
    <div className="dataset-diff">
      <p role="status" aria-label="Diff summary">
        {from.label} → {to.label}: {plural(counts.added, 'row')} added, {plural(counts.removed, 'row')} removed,{' '}
        {plural(counts.changed, 'row')} changed, {formatInteger(counts.same)} unchanged
      </p>
      {changes.length > 0 && (
        <div className="list-table-scroll">
          <table className="simple-table" aria-label="Changed rows">
            <thead>
              <tr>
                <th>Change</th>
                <th>Row</th>
                {columns.map((c) => (
                  <th key={c}>{c}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {changes.slice(0, MAX_SHOWN).map((d, k) => (
                <DiffRowView key={k} d={d} columns={columns} />
              ))}
            </tbody>
          </table>
          {changes.length > MAX_SHOWN && (
            <p className="muted">
              The first {MAX_SHOWN} of {formatInteger(changes.length)} changed rows.
            </p>
          )}
        </div>
      )}
    </div>
  );
}

function DiffRowView({ d, columns }: { d: RowDiff; columns: string[] }) {
  const position =
    d.kind === 'added' ? `+${d.afterIndex}` : d.kind === 'removed' ? `−${d.beforeIndex}` : `${d.beforeIndex} → ${d.afterIndex}`;
  return (
    <tr className={`dataset-diff-${d.kind}`}>
      <td>{d.kind}</td>
      <td className="mono">{position}</td>
      {columns.map((c) => {
        if (d.kind === 'changed' && d.keys.includes(c))
          return (
            <td key={c} className="dataset-diff-cell" aria-label={`${c} changed`}>
              <del>{previewValue(field(d.before.val, c), 80)}</del> <ins>{previewValue(field(d.after.val, c), 80)}</ins>
            </td>
          );
        const val = d.kind === 'removed' ? d.before.val : d.kind === 'added' ? d.after.val : d.after.val;
        return <td key={c}>{previewValue(field(val, c), 80)}</td>;
      })}
    </tr>
  );
}
