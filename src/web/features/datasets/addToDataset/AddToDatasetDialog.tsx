/**
 * "Add to dataset": the selected calls, threads or queue items become rows of a dataset. Pick
 * one (or name a new one), adjust the column mapping, read the preview the server builds from
 * the same mapping, then write a new version: the dataset's rows followed by these
 * (docs/datasets.md "Add to dataset").
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { describeError } from '../../../components/ui/ErrorState.js';
import { ModalDialog } from '../../../components/ui/ModalDialog.js';
import { api } from '../../../lib/api.js';
import { formatInteger, plural } from '../../../lib/format.js';
import { objectKeys } from '../../objects/objectQueries.js';
import {
  datasetsQueryOptions,
  previewQueryOptions,
  type DatasetColumnMapping,
  type DatasetRowSource,
  type PreviewReq,
} from './addToDatasetQueries.js';
import { MappingEditor } from './MappingEditor.js';
import { useSettledValue } from './useSettledValue.js';
import './addToDataset.css';

/** The object id rule of the contract: 1-128 letters, digits, ".", "_" or "-". */
const VALID_NAME = /^[\p{L}\p{N}_.-]{1,128}$/u;

const NEW = '';

/** How many of what: "3 calls". */
function describeSource(source: DatasetRowSource): string {
  if (source.kind === 'calls') return plural(source.call_ids.length, 'call');
  if (source.kind === 'threads') return plural(source.thread_ids.length, 'thread');
  return plural(source.item_ids.length, 'queue item');
}

const defaultName = (source: DatasetRowSource) => (source.kind === 'queue_items' ? 'reviewed-items' : `${source.kind}-dataset`);

/** A cell of the preview: text as it is, anything else as compact JSON. */
const cellText = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));

/** Props: where, which items, and what closing does. */
export interface AddToDatasetDialogProps {
  projectId: string;
  source: DatasetRowSource;
  onClose: () => void;
}

/** The dialog, open while mounted. */
export function AddToDatasetDialog({ projectId, source, onClose }: AddToDatasetDialogProps) {
  const queryClient = useQueryClient();
  const datasets = useQuery(datasetsQueryOptions(projectId));
  const [choice, setChoice] = useState(NEW);
  const [newName, setNewName] = useState(() => defaultName(source));
  const [mapping, setMapping] = useState<DatasetColumnMapping[] | null>(null);
  const dataset = choice === NEW ? newName.trim() : choice;
  const nameOk = VALID_NAME.test(dataset);

  // The preview follows the choices once they settle (typing asks once), keeping the last answer meanwhile.
  const settledJson = useSettledValue(JSON.stringify({ projectId, dataset, source, mapping } satisfies PreviewReq));
  const settled = useMemo(() => JSON.parse(settledJson) as PreviewReq, [settledJson]);
  const preview = useQuery({ ...previewQueryOptions(settled), enabled: VALID_NAME.test(settled.dataset), retry: false });
  const answer = preview.data;
  // Adding writes what the preview shows: only once it answers for the current choices.
  const previewCurrent =
    settledJson === JSON.stringify({ projectId, dataset, source, mapping }) &&
    Boolean(answer) &&
    !preview.isPlaceholderData &&
    !preview.isError;
  const shown = mapping ?? answer?.mapping ?? [];

  const save = useMutation({
    mutationFn: () => api.datasetAddFromTraces({ project_id: projectId, dataset, source, mapping: shown }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: objectKeys.project(projectId) }),
  });
  const saved = save.data;
  const existingColumns = answer?.existing?.columns ?? [];
  const newColumns = answer?.existing ? shown.map((m) => m.column).filter((c) => !existingColumns.includes(c)) : [];

  return (
    <ModalDialog title="Add to dataset" className="add-to-dataset" onClose={onClose}>
      <form
        className="modal-body"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <p className="muted small">{describeSource(source)}, one row each. The dataset gets a new version: its rows, then these.</p>
        <div className="dataset-choice">
          <label className="field">
            <span>Dataset</span>
            <select
              className="input"
              value={choice}
              disabled={save.isPending}
              onChange={(e) => {
                setChoice(e.target.value);
                save.reset();
              }}
            >
              <option value={NEW}>New dataset…</option>
              {datasets.data?.map((id) => (
                <option key={id} value={id}>
                  {id}
                </option>
              ))}
            </select>
          </label>
          {choice === NEW && (
            <label className="field">
              <span>Name</span>
              <input
                className="input"
                value={newName}
                required
                pattern="[\p{L}\p{N}_.\-]{1,128}"
                title="1-128 letters, digits, “.”, “_” or “-”"
                onChange={(e) => {
                  setNewName(e.target.value);
                  save.reset();
                }}
              />
            </label>
          )}
        </div>
        {datasets.error && <p className="form-error">Could not list the datasets: {describeError(datasets.error).detail}</p>}

        {answer && (
          <MappingEditor
            mapping={shown}
            fields={answer.fields}
            itemCount={answer.row_count}
            onChange={(m) => {
              setMapping(m);
              save.reset();
            }}
            onReset={mapping ? () => setMapping(null) : null}
          />
        )}

        <section aria-label="Preview">
          <h3 className="small">
            Preview
            {answer && (
              <span className="muted">
                {answer.existing
                  ? ` · ${plural(answer.row_count, 'row')} after the ${formatInteger(answer.existing.row_count)} of version v${answer.existing.version_index}`
                  : ` · a new dataset of ${plural(answer.row_count, 'row')}`}
              </span>
            )}
          </h3>
          {preview.error ? (
            <p className="form-error" role="alert">
              {describeError(preview.error).detail}
            </p>
          ) : !answer ? (
            <p className="muted">{nameOk ? 'Building the preview…' : 'Name the dataset to see the preview.'}</p>
          ) : (
            <div className="dataset-preview-scroll">
              <table className="simple-table" aria-label="Preview rows">
                <thead>
                  <tr>
                    {answer.mapping.map((m) => (
                      <th key={m.column}>{m.column}</th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {answer.rows.map((row, i) => (
                    <tr key={i}>
                      {answer.mapping.map((m) => (
                        <td key={m.column} className="ellipsis" title={cellText(row[m.column])}>
                          {cellText(row[m.column])}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
              {answer.row_count > answer.rows.length && (
                <p className="muted small">
                  The first {formatInteger(answer.rows.length)} of {formatInteger(answer.row_count)} rows.
                </p>
              )}
            </div>
          )}
          {newColumns.length > 0 && (
            <p className="muted small">
              Columns the dataset does not have yet: {newColumns.join(', ')} (its rows so far: {existingColumns.join(', ') || 'none'}).
            </p>
          )}
        </section>

        {saved && (
          <p role="status">
            Added {plural(saved.row_count, 'row')} to{' '}
            <Link to={`/${projectId}/datasets/${encodeURIComponent(dataset)}?v=${saved.digest}`}>{dataset}</Link> (version v
            {saved.version_index}).
          </p>
        )}
        {save.error && (
          <p className="form-error" role="alert">
            Could not add: {describeError(save.error).detail}
          </p>
        )}
        <footer className="modal-footer">
          <button type="button" className="button" onClick={onClose}>
            {saved ? 'Close' : 'Cancel'}
          </button>
          <button type="submit" className="button primary" disabled={!nameOk || !previewCurrent || save.isPending || Boolean(saved)}>
            {save.isPending ? 'Adding…' : `Add ${answer ? plural(answer.row_count, 'row') : 'rows'}`}
          </button>
        </footer>
      </form>
    </ModalDialog>
  );
}
