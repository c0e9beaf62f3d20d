/**
 * Create or edit a monitor: its judges, the ops whose calls it watches (none: every op), the
 * share of those calls it scores, and whether it is active. Saving stores a new version of the
 * `Monitor` object; the server picks it up for calls that end from then on.
 */
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { api, collect } from '../../lib/api.js';
import { ModalDialog } from '../../components/ui/ModalDialog.js';
import { nameProblem } from '../judges/judgeObjects.js';
import { useSaveObject, type LlmObject } from '../judges/judgeQueries.js';
import { EditorActions } from '../../components/ui/EditorActions.js';
import { monitorKeys } from './monitorQueries.js';
import { isInternalOp, opNameOf, toMonitorValue, type MonitorForm } from './monitorObjects.js';
import '../judges/judges.css';

/** The project's op names: its stored ops and the ops of its recent calls (not every client stores its ops). */
function useOpNames(projectId: string) {
  return useQuery({
    queryKey: monitorKeys.ops(projectId),
    queryFn: async ({ signal }) => {
      const [{ objs }, calls] = await Promise.all([
        api.objsQuery({ project_id: projectId, filter: { is_op: true, latest_only: true }, metadata_only: true }, { signal }),
        collect(
          api.callsStreamQuery(
            { project_id: projectId, columns: ['op_name'], sort_by: [{ field: 'started_at', direction: 'desc' }], limit: 500 },
            { signal },
          ),
        ),
      ]);
      return [...new Set([...objs.map((o) => o.object_id), ...calls.map((c) => opNameOf(c.op_name))])].sort();
    },
  });
}

export function MonitorEditor(props: {
  projectId: string;
  initial: MonitorForm;
  existing: boolean;
  judges: LlmObject[];
  onClose: () => void;
}) {
  const { projectId } = props;
  const [form, setForm] = useState(props.initial);
  const set = (patch: Partial<MonitorForm>) => setForm((f) => ({ ...f, ...patch }));
  const ops = useOpNames(projectId);
  const save = useSaveObject(projectId);
  const opChoices = [...new Set([...(ops.data ?? []), ...form.ops])].sort();
  // Evaluation and judge machinery stays folded unless asked for, searched for or already chosen.
  const [opSearch, setOpSearch] = useState('');
  const [showInternal, setShowInternal] = useState(false);
  const needle = opSearch.trim().toLowerCase();
  const matching = opChoices.filter((op) => op.toLowerCase().includes(needle));
  const shownOps = matching.filter((op) => showInternal || needle !== '' || form.ops.includes(op) || !isInternalOp(op));
  const hiddenInternal = matching.length - shownOps.length;
  const rateOk = Number.isFinite(form.samplingPercent) && form.samplingPercent >= 0 && form.samplingPercent <= 100;
  const problem =
    nameProblem(form.name) ??
    (form.scorers.length ? null : 'Pick at least one judge.') ??
    (rateOk ? null : 'The sampling rate is a percentage, 0 to 100.');
  const toggle = (list: string[], item: string, on: boolean) => (on ? [...list, item] : list.filter((x) => x !== item));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!problem) save.mutate({ name: form.name, val: toMonitorValue(projectId, form) }, { onSuccess: props.onClose });
  };

  return (
    <ModalDialog title={props.existing ? `Edit monitor ${form.name}` : 'New monitor'} onClose={props.onClose} className="judge-editor">
      <form className="form-stack" onSubmit={submit}>
        <label className="field">
          <span>Name</span>
          <input className="input" value={form.name} disabled={props.existing} onChange={(e) => set({ name: e.target.value })} />
        </label>
        <label className="field">
          <span>Description</span>
          <input className="input" value={form.description} onChange={(e) => set({ description: e.target.value })} />
        </label>
        <fieldset className="check-group">
          <legend>Judges</legend>
          {props.judges.length === 0 && (
            <p className="small">
              No LLM judges yet. <Link to={`/${projectId}/judges`}>Create one</Link> first.
            </p>
          )}
          {props.judges.map((j) => (
            <label key={j.ref}>
              <input
                type="checkbox"
                checked={form.scorers.includes(j.ref)}
                onChange={(e) => set({ scorers: toggle(form.scorers, j.ref, e.target.checked) })}
              />
              {j.name} (v{j.version})
            </label>
          ))}
          {form.scorers
            .filter((ref) => !props.judges.some((j) => j.ref === ref))
            .map((ref) => (
              <label key={ref}>
                <input type="checkbox" checked onChange={() => set({ scorers: form.scorers.filter((s) => s !== ref) })} />
                <span className="mono small">{ref.split('/').pop()}</span>
              </label>
            ))}
        </fieldset>
        <fieldset className="check-group">
          <legend>Calls of these ops (none checked: every op)</legend>
          {opChoices.length === 0 && <p className="small muted">No ops logged yet: the monitor will watch every op.</p>}
          {(opChoices.length > 6 || opChoices.some(isInternalOp)) && (
            <input
              type="search"
              className="input"
              aria-label="Find an op"
              placeholder="Find an op"
              value={opSearch}
              onChange={(e) => setOpSearch(e.target.value)}
            />
          )}
          {shownOps.map((op) => (
            <label key={op} className="mono">
              <input
                type="checkbox"
                checked={form.ops.includes(op)}
                onChange={(e) => set({ ops: toggle(form.ops, op, e.target.checked) })}
              />
              {op}
            </label>
          ))}
          {hiddenInternal > 0 && (
            <button type="button" className="button ghost small" onClick={() => setShowInternal(true)}>
              Show {hiddenInternal} evaluation and judge {hiddenInternal === 1 ? 'op' : 'ops'}
            </button>
          )}
        </fieldset>
        {form.query && <p className="small muted">It also keeps the filter it was saved with: {JSON.stringify(form.query)}</p>}
        <div className="row">
          <label className="field">
            <span>Sampling rate (%)</span>
            <input
              className="input"
              type="number"
              min="0"
              max="100"
              step="1"
              value={form.samplingPercent}
              onChange={(e) => set({ samplingPercent: e.target.value === '' ? NaN : Number(e.target.value) })}
            />
          </label>
          <label className="toggle">
            <input type="checkbox" checked={form.active} onChange={(e) => set({ active: e.target.checked })} />
            Active
          </label>
        </div>
        <p className="small muted">
          Each call that ends after saving is scored with this chance; the judges&apos; own calls are never scored.
        </p>
        <EditorActions
          problem={problem}
          started={!!form.name}
          error={save.error}
          pending={save.isPending}
          submitLabel={props.existing ? 'Save new version' : 'Create monitor'}
          onCancel={props.onClose}
        />
      </form>
    </ModalDialog>
  );
}
