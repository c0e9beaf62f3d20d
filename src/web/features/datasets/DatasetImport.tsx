/**
 * Import a CSV or JSON-lines file (docs/datasets.md "Dataset page"): the file is read in the
 * browser, previewed with every problem named by line, and saved as a new version (its rows
 * replacing or following the version's) or as a new dataset. Nothing is written while the
 * file has a problem.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { saveDatasetEdits, saveDatasetRows, type DatasetRow } from '../../../client/datasetVersions.js';
import { previewValue } from '../../components/table/ValueCell.js';
import { MutationError } from '../../components/ui/MutationError.js';
import { api } from '../../lib/api.js';
import { plural } from '../../lib/format.js';
import { objectKeys } from '../objects/objectQueries.js';
import { columnNames, parseImport, type ParsedImport } from './datasetModel.js';
import { datasetKeys } from './datasetQueries.js';
import './datasets.css';

const PREVIEW_ROWS = 10;
const ERRORS_SHOWN = 20;

export interface DatasetImportProps {
  projectId: string;
  /** The version the import follows, or null for a new dataset. */
  base: { objectId: string; val: Record<string, unknown> } | null;
  onSaved: (objectId: string, digest: string) => void;
  onClose: () => void;
}

export function DatasetImport({ projectId, base, onSaved, onClose }: DatasetImportProps) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [file, setFile] = useState<{ name: string; parsed: ParsedImport } | null>(null);
  const [mode, setMode] = useState<'replace' | 'append'>('replace');
  const rows = useMemo(() => file?.parsed.rows ?? [], [file]);
  const errors = file?.parsed.errors ?? [];
  const columns = useMemo(() => columnNames(rows.slice(0, PREVIEW_ROWS)), [rows]);
  const objectId = base?.objectId ?? name.trim();

  const save = useMutation({
    mutationFn: (rows: DatasetRow[]) =>
      base && mode === 'append'
        ? saveDatasetEdits(api, { projectId, objectId, baseVal: base.val, edits: { append: rows } })
        : saveDatasetRows(api, { projectId, objectId, baseVal: base?.val ?? null, rows }),
    onSuccess: (saved) => {
      void queryClient.invalidateQueries({ queryKey: objectKeys.project(projectId) });
      void queryClient.invalidateQueries({ queryKey: datasetKeys.project(projectId) });
      onSaved(objectId, saved.digest);
    },
  });

  const read = async (f: File | undefined) => {
    save.reset();
    setFile(f ? { name: f.name, parsed: parseImport(f.name, await f.text()) } : null);
  };

  return (
    <section className="card dataset-import" aria-label="Import rows">
      <h2>{base ? 'Import rows as a new version' : 'New dataset from a file'}</h2>
      <div className="row">
        {!base && (
          <label className="field">
            <span>Name</span>
            <input className="input" aria-label="Dataset name" value={name} onChange={(e) => setName(e.target.value)} />
          </label>
        )}
        <label className="field">
          <span>CSV (a header line, then rows) or JSON lines (an object a line)</span>
          <input
            type="file"
            aria-label="File to import"
            accept=".csv,.jsonl,.ndjson,.json,text/csv,application/jsonl"
            onChange={(e) => void read(e.target.files?.[0])}
          />
        </label>
        {base && (
          <label className="field">
            <span>The file&apos;s rows</span>
            <select
              className="input"
              aria-label="Import mode"
              value={mode}
              onChange={(e) => setMode(e.target.value as 'replace' | 'append')}
            >
              <option value="replace">replace the rows</option>
              <option value="append">follow the rows</option>
            </select>
          </label>
        )}
      </div>
      {file && errors.length > 0 && (
        <div role="alert" className="dataset-import-errors">
          <p>
            {file.name} cannot be imported: {plural(errors.length, 'problem')}. Fix the file and choose it again.
          </p>
          <ul>
            {errors.slice(0, ERRORS_SHOWN).map((e, k) => (
              <li key={k}>
                line {e.line}: {e.message}
              </li>
            ))}
          </ul>
          {errors.length > ERRORS_SHOWN && <p className="muted">and {errors.length - ERRORS_SHOWN} more</p>}
        </div>
      )}
      {file && errors.length === 0 && (
        <>
          <p className="muted" aria-live="polite">
            {file.name}: {plural(rows.length, 'row')}, {plural(columns.length, 'column')}
            {rows.length > PREVIEW_ROWS ? `; the first ${PREVIEW_ROWS} below` : ''}
          </p>
          <div className="list-table-scroll">
            <table className="simple-table" aria-label="Import preview">
              <thead>
                <tr>
                  {columns.map((c) => (
                    <th key={c}>{c}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.slice(0, PREVIEW_ROWS).map((r, k) => (
                  <tr key={k}>
                    {columns.map((c) => (
                      <td key={c}>{previewValue(r[c], 80)}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      <MutationError mutations={[save]} />
      <div className="row">
        <button
          type="button"
          className="button primary"
          disabled={!file || errors.length > 0 || rows.length === 0 || !objectId || save.isPending}
          onClick={() => save.mutate(rows)}
        >
          {save.isPending ? 'Saving…' : base ? 'Save as new version' : 'Create dataset'}
        </button>
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      </div>
    </section>
  );
}
