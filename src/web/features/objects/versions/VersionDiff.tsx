/**
 * Two versions of an object side by side as a structural diff: each added, removed or changed
 * path with its value before and after (refs stay links, so changed dataset rows open).
 * Both versions are picked from the URL (`version` and `against`).
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { ErrorState } from '../../../components/ui/ErrorState.js';
import { Spinner } from '../../../components/ui/Spinner.js';
import { previewValue } from '../../../components/table/ValueCell.js';
import { RefLink } from '../../../components/refs/RefLink.js';
import { formatInteger } from '../../../lib/format.js';
import { isRefString, parseRef, shortDigest } from '../../../lib/refs.js';
import { countDiff, diffJson, type DiffEntry } from './jsonDiff.js';
import { CodeDiff } from './CodeDiff.js';
import { pathLabel, sourceFile } from '../objectFields.js';
import { objectVersionQueryOptions, type ObjVersion } from '../objectQueries.js';
import { tableCountQueryOptions } from '../tables/tableQueries.js';
import '../objectPage.css';

/** Entries drawn at most (a diff of big inline lists can be long). */
const SHOWN = 500;

/** Props: the object, its versions, and the two digests to compare (base first). */
export interface VersionDiffProps {
  projectId: string;
  objectId: string;
  versions: ObjVersion[];
  base: string | null;
  target: string;
  onPick: (patch: { base?: string; target?: string }) => void;
}

/** Version comparison. */
export function VersionDiff({ projectId, objectId, versions, base, target, onPick }: VersionDiffProps) {
  const a = useQuery({ ...objectVersionQueryOptions({ projectId, objectId, version: base ?? '' }), enabled: base !== null });
  const b = useQuery(objectVersionQueryOptions({ projectId, objectId, version: target }));
  const diff = useMemo(() => (a.data && b.data ? diffJson(a.data.val, b.data.val) : null), [a.data, b.data]);
  const counts = diff ? countDiff(diff.entries) : null;
  const codeBefore = a.data ? sourceFile(a.data.val) : null;
  const codeAfter = b.data ? sourceFile(b.data.val) : null;
  const label = (v: ObjVersion) => `v${v.version_index} · ${shortDigest(v.digest)}${v.aliases.length ? ` (${v.aliases.join(', ')})` : ''}`;

  return (
    <div className="version-diff">
      <div className="diff-toolbar">
        <label className="diff-pick">
          <span>From</span>
          <select className="input" aria-label="Base version" value={base ?? ''} onChange={(e) => onPick({ base: e.target.value })}>
            {base === null && <option value="">Pick a version</option>}
            {versions.map((v) => (
              <option key={v.digest} value={v.digest}>
                {label(v)}
              </option>
            ))}
          </select>
        </label>
        <span aria-hidden="true">→</span>
        <label className="diff-pick">
          <span>To</span>
          <select className="input" aria-label="Compared version" value={target} onChange={(e) => onPick({ target: e.target.value })}>
            {versions.map((v) => (
              <option key={v.digest} value={v.digest}>
                {label(v)}
              </option>
            ))}
          </select>
        </label>
        {counts && (
          <span className="diff-counts" aria-live="polite">
            <span className="diff-added">{counts.added} added</span> · <span className="diff-removed">{counts.removed} removed</span> ·{' '}
            <span className="diff-changed">{counts.changed} changed</span>
          </span>
        )}
        {(a.isFetching || b.isFetching) && <Spinner label="Loading versions" />}
      </div>
      {a.error || b.error ? (
        <ErrorState error={a.error ?? b.error} />
      ) : base === null ? (
        <p className="muted">This object has one version: there is nothing to compare it with yet.</p>
      ) : !diff ? (
        <Spinner showLabel label="Comparing" />
      ) : diff.entries.length === 0 ? (
        <p className="muted">
          {base === target
            ? 'Pick two different versions to compare.'
            : 'These versions have the same value (they differ only in metadata).'}
        </p>
      ) : (
        <div className="diff-body">
          <DiffTable entries={diff.entries} truncated={diff.truncated} />
          {codeBefore && codeAfter && codeBefore.digest !== codeAfter.digest && (
            <CodeDiff projectId={projectId} before={codeBefore} after={codeAfter} />
          )}
        </div>
      )}
    </div>
  );
}

const KIND_LABEL = { added: 'added', removed: 'removed', changed: 'changed' } as const;

/** The differences, one row per path: kind, path, value before, value after. */
function DiffTable({ entries, truncated }: { entries: DiffEntry[]; truncated: boolean }) {
  const shown = entries.slice(0, SHOWN);
  return (
    <div className="diff-scroll">
      <table className="simple-table diff-table" aria-label="Differences">
        <thead>
          <tr>
            <th style={{ width: 84 }}>Change</th>
            <th style={{ width: '24%' }}>Path</th>
            <th>Before</th>
            <th>After</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((e) => (
            <tr key={pathLabel(e.path)}>
              <td>
                <span className={`diff-kind ${e.kind}`}>{KIND_LABEL[e.kind]}</span>
              </td>
              <td className="mono diff-path">{pathLabel(e.path)}</td>
              <td className="diff-before">{e.kind === 'added' ? <span className="muted">—</span> : <DiffValue value={e.before} />}</td>
              <td className="diff-after">{e.kind === 'removed' ? <span className="muted">—</span> : <DiffValue value={e.after} />}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {(entries.length > SHOWN || truncated) && (
        <p className="muted small">
          Showing the first {formatInteger(shown.length)} differences
          {truncated ? ' (the comparison stopped there)' : ` of ${formatInteger(entries.length)}`}.
        </p>
      )}
    </div>
  );
}

/** One side of a difference: refs as links (tables with their row count), text wrapped, anything else as compact JSON. */
function DiffValue({ value }: { value: unknown }) {
  if (isRefString(value)) {
    const ref = parseRef(value);
    return (
      <span className="diff-ref">
        <RefLink uri={value} />
        {ref?.kind === 'table' && ref.extra.length === 0 && <TableSize projectId={`${ref.entity}/${ref.project}`} digest={ref.digest} />}
      </span>
    );
  }
  if (typeof value === 'string') return <span className="diff-text">{previewValue(value, 2000)}</span>;
  return <span className="diff-text mono">{value === null ? 'null' : previewValue(value, 1000)}</span>;
}

/** `640 rows`, once the table's count arrives. */
function TableSize({ projectId, digest }: { projectId: string; digest: string }) {
  const count = useQuery(tableCountQueryOptions({ projectId, digest }));
  return count.data === undefined ? null : <span className="muted small">{formatInteger(count.data)} rows</span>;
}
