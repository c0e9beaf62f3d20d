/**
 * Create or edit a leaderboard: its name and description, and its columns (an evaluation
 * version, a scorer, a metric path in the scorer's summary, and whether lower is better).
 * Saving writes a new version of the `Leaderboard` object (docs/leaderboards.md).
 */
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { EditorActions } from '../../components/ui/EditorActions.js';
import { ModalDialog } from '../../components/ui/ModalDialog.js';
import { objectRef, parseRef } from '../../lib/refs.js';
import { evaluationObjectsQueryOptions } from '../evaluations/evaluationQueries.js';
import {
  leaderboardProblem,
  metricPaths,
  toLeaderboardValue,
  type LeaderboardColumnForm,
  type LeaderboardForm,
} from './leaderboardModel.js';
import { leaderboardRunsQueryOptions, useSaveLeaderboard } from './leaderboardQueries.js';
import './leaderboards.css';

/** The name a scorer ref's results are keyed by in a run's output. */
function scorerName(ref: string): string {
  const parsed = parseRef(ref);
  return parsed && (parsed.kind === 'object' || parsed.kind === 'op') ? parsed.name : ref;
}

const emptyColumn = (evaluation = ''): LeaderboardColumnForm => ({ evaluation, scorer: '', metricPath: '', minimize: null });

export function LeaderboardEditor(props: {
  projectId: string;
  initial: LeaderboardForm;
  /** The stored value being edited (its other fields are kept); null for a new leaderboard. */
  previous: Record<string, unknown> | null;
  onClose: () => void;
  onSaved: (name: string) => void;
}) {
  const { projectId } = props;
  const [form, setForm] = useState(props.initial);
  const evaluations = useQuery(evaluationObjectsQueryOptions(projectId));
  const choices = (evaluations.data ?? []).map((e) => ({
    ref: objectRef({ projectId, kind: 'object', name: e.object_id, digest: e.digest }),
    label: `${e.name} v${e.version_index}`,
    scorers: e.scorers.map(scorerName),
  }));
  const evaluationRefs = [...new Set(form.columns.map((c) => c.evaluation).filter(Boolean))];
  const runs = useQuery(leaderboardRunsQueryOptions(projectId, evaluationRefs));
  const save = useSaveLeaderboard(projectId);
  const problem = leaderboardProblem(form);
  const setColumn = (i: number, patch: Partial<LeaderboardColumnForm>) =>
    setForm((f) => ({ ...f, columns: f.columns.map((c, j) => (j === i ? { ...c, ...patch } : c)) }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (problem) return;
    save.mutate({ name: form.name, val: toLeaderboardValue(form, props.previous ?? {}) }, { onSuccess: () => props.onSaved(form.name) });
  };

  return (
    <ModalDialog
      title={props.previous ? `Edit leaderboard ${form.name}` : 'New leaderboard'}
      onClose={props.onClose}
      className="leaderboard-editor"
    >
      <form className="leaderboard-form" onSubmit={submit}>
        <label className="field">
          <span>Name</span>
          <input
            className="input"
            value={form.name}
            disabled={!!props.previous}
            onChange={(e) => setForm({ ...form, name: e.target.value })}
          />
        </label>
        <label className="field">
          <span>Description</span>
          <input className="input" value={form.description} onChange={(e) => setForm({ ...form, description: e.target.value })} />
        </label>
        {form.columns.map((c, i) => {
          const choice = choices.find((x) => x.ref === c.evaluation);
          const paths = [
            ...new Set((runs.data ?? []).filter((r) => r.inputs.self === c.evaluation).flatMap((r) => metricPaths(r.output, c.scorer))),
          ];
          return (
            <fieldset key={i} className="leaderboard-column-form">
              <legend>Column {i + 1}</legend>
              <label className="field">
                <span>Evaluation</span>
                <select className="input" value={c.evaluation} onChange={(e) => setColumn(i, { evaluation: e.target.value })}>
                  <option value="">Choose an evaluation</option>
                  {c.evaluation && !choice && <option value={c.evaluation}>{c.evaluation}</option>}
                  {choices.map((x) => (
                    <option key={x.ref} value={x.ref}>
                      {x.label}
                    </option>
                  ))}
                </select>
              </label>
              <label className="field">
                <span>Scorer</span>
                <input
                  className="input"
                  list={`scorers-${i}`}
                  value={c.scorer}
                  onChange={(e) => setColumn(i, { scorer: e.target.value })}
                />
                <datalist id={`scorers-${i}`}>
                  {[...(choice?.scorers ?? []), 'model_latency'].map((s) => (
                    <option key={s} value={s} />
                  ))}
                </datalist>
              </label>
              <label className="field">
                <span>Metric path</span>
                <input
                  className="input mono"
                  list={`paths-${i}`}
                  placeholder="correct.true_fraction"
                  value={c.metricPath}
                  onChange={(e) => setColumn(i, { metricPath: e.target.value })}
                />
                <datalist id={`paths-${i}`}>
                  {paths.map((p) => (
                    <option key={p} value={p} />
                  ))}
                </datalist>
              </label>
              <label className="field">
                <span>Better</span>
                <select
                  className="input"
                  value={c.minimize ? 'lower' : 'higher'}
                  onChange={(e) => setColumn(i, { minimize: e.target.value === 'lower' ? true : c.minimize === null ? null : false })}
                >
                  <option value="higher">Higher is better</option>
                  <option value="lower">Lower is better</option>
                </select>
              </label>
              <button
                type="button"
                className="button small"
                aria-label={`Remove column ${i + 1}`}
                onClick={() => setForm({ ...form, columns: form.columns.filter((_, j) => j !== i) })}
              >
                Remove
              </button>
            </fieldset>
          );
        })}
        <div className="row">
          <button
            type="button"
            className="button small"
            onClick={() => setForm({ ...form, columns: [...form.columns, emptyColumn(choices[0]?.ref)] })}
          >
            Add column
          </button>
        </div>
        <EditorActions
          problem={problem}
          started={!!form.name}
          error={save.error}
          pending={save.isPending}
          submitLabel={props.previous ? 'Save new version' : 'Create leaderboard'}
          onCancel={props.onClose}
        />
      </form>
    </ModalDialog>
  );
}
