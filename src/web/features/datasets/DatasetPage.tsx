/**
 * One dataset (`/:entity/:project/datasets/:objectId?v=<digest>&tab=…`), docs/datasets.md
 * "Dataset page": a version's rows edited in place (each save a new version, as the SDKs write
 * them), the version history with a row diff between any two versions, import and export, and
 * "Run evaluation on this version", which opens the evaluation launcher with it chosen.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { ErrorState } from '../../components/ui/ErrorState.js';
import { CopyButton } from '../../components/ui/CopyButton.js';
import { Spinner } from '../../components/ui/Spinner.js';
import { formatInteger, formatRelative } from '../../lib/format.js';
import { objectRef } from '../../lib/refs.js';
import { useCan } from '../auth/useCan.js';
import { DatasetDiff } from './DatasetDiff.js';
import { exportRows, type ExportFormat } from './datasetExport.js';
import { DatasetImport } from './DatasetImport.js';
import { datasetVersionsQueryOptions, type DatasetVersion } from './datasetQueries.js';
import { DatasetRowsEditor } from './DatasetRowsEditor.js';
import '../objects/objectPage.css';
import '../objects/objects.css';
import './datasets.css';

const TABS = [
  { id: 'rows', label: 'Rows' },
  { id: 'history', label: 'Versions' },
  { id: 'import', label: 'Import' },
] as const;
type Tab = (typeof TABS)[number]['id'];

export function DatasetPage() {
  const { entity = '', project = '', objectId = '' } = useParams();
  const projectId = `${entity}/${project}`;
  const [params, setParams] = useSearchParams();
  const versions = useQuery(datasetVersionsQueryOptions(projectId, objectId));
  const can = useCan(projectId);
  const canEdit = can('objCreate').allowed && can('tableUpdate').allowed;
  const queryClient = useQueryClient();
  const [exporting, setExporting] = useState<unknown>(null);

  const set = (changes: Record<string, string | null>) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        for (const [k, v] of Object.entries(changes)) {
          if (v) next.set(k, v);
          else next.delete(k);
        }
        return next;
      },
      { replace: true },
    );

  if (versions.error) return <ErrorState error={versions.error} onRetry={() => void versions.refetch()} />;
  if (!versions.data)
    return (
      <div className="page-loading">
        <Spinner showLabel label="Loading dataset" />
      </div>
    );
  if (versions.data.length === 0) return <ErrorState error={new Error(`This project has no dataset named ${objectId}.`)} />;

  const all = versions.data;
  const current = all.find((v) => v.obj.digest === params.get('v')) ?? all[0]!;
  const tab: Tab = TABS.find((t) => t.id === params.get('tab'))?.id ?? 'rows';
  const ref = objectRef({ projectId, kind: 'object', name: objectId, digest: current.obj.digest });
  const label = (v: DatasetVersion) => `v${v.obj.version_index}`;
  const download = (format: ExportFormat) => {
    setExporting(null);
    if (current.tableDigest)
      exportRows(queryClient, { projectId, tableDigest: current.tableDigest, fileName: `${objectId}-${label(current)}`, format }).catch(
        setExporting,
      );
  };
  const opened = (digest: string) => set({ v: digest, tab: null });

  return (
    <div className="page object-page">
      <header className="page-header">
        <h1 className="object-title">
          <Link to={`/${projectId}/datasets`}>Datasets</Link> / <span className="mono">{objectId}</span>
        </h1>
        <select className="input" aria-label="Version" value={current.obj.digest} onChange={(e) => set({ v: e.target.value })}>
          {all.map((v) => (
            <option key={v.obj.digest} value={v.obj.digest}>
              {label(v)}
              {v === all[0] ? ' (latest)' : ''}
            </option>
          ))}
        </select>
        <span className="muted small">
          {current.rowCount === null ? '' : `${formatInteger(current.rowCount)} rows · `}saved {formatRelative(current.obj.created_at)}
        </span>
        <span className="spacer" />
        <CopyButton text={ref} label="Copy ref" />
        <button type="button" className="button" disabled={!current.tableDigest} onClick={() => download('csv')}>
          Export CSV
        </button>
        <button type="button" className="button" disabled={!current.tableDigest} onClick={() => download('jsonl')}>
          Export JSONL
        </button>
        <Link className="button primary" to={`/${projectId}/evaluations?dataset=${encodeURIComponent(ref)}`}>
          Run evaluation on this version
        </Link>
      </header>
      {exporting !== null && <ErrorState error={exporting} compact />}
      {current.tableDigest === null ? (
        <p className="muted">This version&apos;s rows are not a table ref, so there is nothing to edit here.</p>
      ) : (
        <div className="object-tabs">
          <div className="tabs" role="tablist" aria-label="Dataset views">
            {TABS.map((t) => (
              <button
                key={t.id}
                type="button"
                role="tab"
                id={`tab-${t.id}`}
                aria-selected={t.id === tab}
                className={t.id === tab ? 'tab active' : 'tab'}
                onClick={() => set({ tab: t.id === 'rows' ? null : t.id })}
              >
                {t.label}
              </button>
            ))}
          </div>
          <div className="tab-panel" role="tabpanel" aria-labelledby={`tab-${tab}`}>
            {tab === 'rows' && (
              <DatasetRowsEditor
                key={current.obj.digest}
                projectId={projectId}
                objectId={objectId}
                version={current.obj}
                tableDigest={current.tableDigest}
                canEdit={canEdit}
                onSaved={opened}
              />
            )}
            {tab === 'history' && <History projectId={projectId} all={all} current={current} params={params} set={set} />}
            {tab === 'import' &&
              (canEdit ? (
                <DatasetImport
                  projectId={projectId}
                  base={{ objectId, val: current.obj.val as Record<string, unknown> }}
                  onSaved={(_, digest) => opened(digest)}
                  onClose={() => set({ tab: null })}
                />
              ) : (
                <p className="muted">Your role in this project cannot save versions.</p>
              ))}
          </div>
        </div>
      )}
    </div>
  );
}

/** The versions, and the row diff between the two picked (`from`, `to`; by default the one before the current and the current). */
function History({
  projectId,
  all,
  current,
  params,
  set,
}: {
  projectId: string;
  all: DatasetVersion[];
  current: DatasetVersion;
  params: URLSearchParams;
  set: (changes: Record<string, string | null>) => void;
}) {
  const at = all.indexOf(current);
  const to = all.find((v) => v.obj.digest === params.get('to')) ?? current;
  const from = all.find((v) => v.obj.digest === params.get('from')) ?? all[at + 1] ?? current;
  const pick = (name: string, value: DatasetVersion) => (
    <label className="field">
      <span>{name}</span>
      <select
        className="input"
        aria-label={`Compare ${name.toLowerCase()}`}
        value={value.obj.digest}
        onChange={(e) => set({ [name.toLowerCase()]: e.target.value })}
      >
        {all.map((v) => (
          <option key={v.obj.digest} value={v.obj.digest}>
            v{v.obj.version_index}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <div className="dataset-history">
      <table className="simple-table" aria-label="Dataset versions">
        <thead>
          <tr>
            <th>Version</th>
            <th>Rows</th>
            <th>Saved</th>
          </tr>
        </thead>
        <tbody>
          {all.map((v) => (
            <tr key={v.obj.digest} aria-current={v === current || undefined}>
              <td>
                <button type="button" className="link-button" onClick={() => set({ v: v.obj.digest, tab: null })}>
                  v{v.obj.version_index}
                </button>
              </td>
              <td>{v.rowCount === null ? '–' : formatInteger(v.rowCount)}</td>
              <td className="muted">{formatRelative(v.obj.created_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="row" role="group" aria-label="Compare versions">
        {pick('From', from)}
        {pick('To', to)}
      </div>
      {from.tableDigest && to.tableDigest ? (
        <DatasetDiff
          projectId={projectId}
          from={{ label: `v${from.obj.version_index}`, tableDigest: from.tableDigest }}
          to={{ label: `v${to.obj.version_index}`, tableDigest: to.tableDigest }}
        />
      ) : (
        <p className="muted">One of these versions has no rows table.</p>
      )}
    </div>
  );
}
