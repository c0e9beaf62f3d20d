/** Export the selected, the filtered, or all calls of a project as JSONL or CSV. */
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { describeError } from '../../components/ui/ErrorState.js';
import { Popover } from '../../components/ui/Popover.js';
import { formatInteger } from '../../lib/format.js';
import type { CallsListReq } from '../../entities/calls/callQueries.js';
import { exportCalls, type ExportFormat } from './exportCalls.js';
import './calls.css';

type Scope = 'selected' | 'filtered' | 'all';

/** Props: the view's request, its total, and the selected call ids. */
export interface ExportMenuProps {
  req: CallsListReq;
  total: number | null;
  selectedIds: string[];
}

/** Export button with its options panel. */
export function ExportMenu({ req, total, selectedIds }: ExportMenuProps) {
  const [scope, setScope] = useState<Scope>(selectedIds.length ? 'selected' : 'filtered');
  const [format, setFormat] = useState<ExportFormat>('jsonl');
  const run = useMutation({
    mutationFn: () => {
      // Exports carry every column (the table loads only what it shows) and priced costs.
      const base = { project_id: req.project_id, sort_by: req.sort_by, include_costs: true, format };
      const exportReq =
        scope === 'selected'
          ? { ...base, filter: { call_ids: selectedIds } }
          : scope === 'filtered'
            ? { ...base, filter: req.filter, query: req.query }
            : base;
      const name = `${req.project_id.replace('/', '-')}-calls.${format}`;
      return exportCalls({ req: exportReq, suggestedName: name });
    },
  });
  const effectiveScope = scope === 'selected' && selectedIds.length === 0 ? 'filtered' : scope;

  return (
    <Popover label="Export" className="button" align="end">
      {() => (
        <div className="menu export-menu">
          <fieldset className="radio-group">
            <legend>Calls</legend>
            <label>
              <input
                type="radio"
                name="export-scope"
                checked={effectiveScope === 'selected'}
                disabled={selectedIds.length === 0}
                onChange={() => setScope('selected')}
              />
              Selected ({formatInteger(selectedIds.length)})
            </label>
            <label>
              <input type="radio" name="export-scope" checked={effectiveScope === 'filtered'} onChange={() => setScope('filtered')} />
              Matching the filters{total !== null ? ` (${formatInteger(total)})` : ''}
            </label>
            <label>
              <input type="radio" name="export-scope" checked={effectiveScope === 'all'} onChange={() => setScope('all')} />
              All calls in the project
            </label>
          </fieldset>
          <fieldset className="radio-group">
            <legend>Format</legend>
            <label>
              <input type="radio" name="export-format" checked={format === 'jsonl'} onChange={() => setFormat('jsonl')} />
              JSON lines (.jsonl)
            </label>
            <label>
              <input type="radio" name="export-format" checked={format === 'csv'} onChange={() => setFormat('csv')} />
              CSV (.csv)
            </label>
          </fieldset>
          <button type="button" className="button primary wide" disabled={run.isPending} onClick={() => run.mutate()}>
            {run.isPending ? 'Exporting…' : `Export ${format.toUpperCase()}`}
          </button>
          {run.isSuccess && run.data !== 'cancelled' && (
            <p className="small muted" role="status">
              {run.data === 'saved' ? 'Saved.' : 'Download started.'}
            </p>
          )}
          {run.error && (
            <p className="form-error" role="alert">
              {describeError(run.error).title}: {describeError(run.error).detail}
            </p>
          )}
        </div>
      )}
    </Popover>
  );
}
