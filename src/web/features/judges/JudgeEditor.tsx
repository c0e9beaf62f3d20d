/**
 * The editor of an `LLMAsAJudgeScorer`: its judge model (a saved LLMStructuredCompletionModel)
 * and scoring prompt, where `{output}` is the scored call's output, `{inputs}` all its inputs
 * and `{<input name>}` one of them. Saving stores a new version; the name is fixed once saved.
 */
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { ModalDialog } from '../../components/ui/ModalDialog.js';
import { EditorActions } from '../../components/ui/EditorActions.js';
import { describeError } from '../../components/ui/ErrorState.js';
import { useCan } from '../auth/useCan.js';
import { callName } from '../../entities/calls/callFields.js';
import { formatDateTime } from '../../lib/format.js';
import { nameProblem, scoreText, toJudgeValue, type JudgeForm } from './judgeObjects.js';
import { sampleCallsQueryOptions, useSaveObject, useTryJudge, type LlmObject } from './judgeQueries.js';
import './judges.css';

export function JudgeEditor(props: { projectId: string; initial: JudgeForm; existing: boolean; models: LlmObject[]; onClose: () => void }) {
  const [form, setForm] = useState(props.initial);
  const set = (patch: Partial<JudgeForm>) => setForm((f) => ({ ...f, ...patch }));
  const save = useSaveObject(props.projectId);
  const problem =
    nameProblem(form.name) ??
    (form.modelRef ? null : 'Pick the model that judges.') ??
    (form.scoringPrompt.includes('{output}') ? null : 'The prompt should show the judge the output: put {output} in it.');
  // The saved version's model may be an older version of a model: keep it listed.
  const savedModel = props.models.some((m) => m.ref === form.modelRef) ? null : form.modelRef || null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!problem) save.mutate({ name: form.name, val: toJudgeValue(form) }, { onSuccess: props.onClose });
  };

  return (
    <ModalDialog title={props.existing ? `Edit judge ${form.name}` : 'New LLM judge'} onClose={props.onClose} className="judge-editor">
      <form className="form-stack" onSubmit={submit}>
        <label className="field">
          <span>Name</span>
          <input className="input" value={form.name} disabled={props.existing} onChange={(e) => set({ name: e.target.value })} />
        </label>
        <label className="field">
          <span>Judge model</span>
          <select className="input" value={form.modelRef} onChange={(e) => set({ modelRef: e.target.value })}>
            <option value="">Choose…</option>
            {savedModel && <option value={savedModel}>{savedModel.split('/').pop()}</option>}
            {props.models.map((m) => (
              <option key={m.ref} value={m.ref}>
                {m.name} (v{m.version}, {String(m.val.llm_model_id ?? '')})
              </option>
            ))}
          </select>
        </label>
        {props.models.length === 0 && (
          <p className="small muted">Save a judge model first (“New model”): it names the provider model and its answer format.</p>
        )}
        <label className="field">
          <span>Scoring prompt</span>
          <textarea className="input mono" rows={6} value={form.scoringPrompt} onChange={(e) => set({ scoringPrompt: e.target.value })} />
        </label>
        <p className="small muted">
          <code>{'{output}'}</code> is the call&apos;s output, <code>{'{inputs}'}</code> all its inputs as JSON, <code>{'{question}'}</code>{' '}
          the input named question. The judge&apos;s answer is stored as the score (a JSON object when its model answers JSON).
        </p>
        <TryJudge projectId={props.projectId} form={form} problem={form.modelRef ? null : 'Pick the judge model first.'} />
        <EditorActions
          problem={problem}
          started={!!form.name}
          error={save.error}
          pending={save.isPending}
          submitLabel={props.existing ? 'Save new version' : 'Save judge'}
          onCancel={props.onClose}
        />
      </form>
    </ModalDialog>
  );
}

/**
 * "Try on a call": the judge as edited (saved or not) scores one recent call, so a prompt can be
 * checked before it is saved or set on a monitor. Its calls are written; no score is stored.
 */
function TryJudge({ projectId, form, problem }: { projectId: string; form: JudgeForm; problem: string | null }) {
  const allowed = useCan(projectId)('judgeTry').allowed;
  const samples = useQuery({ ...sampleCallsQueryOptions(projectId), enabled: allowed });
  const [picked, setPicked] = useState('');
  const run = useTryJudge(projectId);
  if (!allowed) return null;
  const callId = picked || samples.data?.[0]?.id || '';
  const answer = run.data;
  return (
    <fieldset className="judge-try" aria-label="Try on a call">
      <legend>Try on a call</legend>
      {samples.data?.length === 0 ? (
        <p className="small muted">No ended calls in this project yet to try the judge on.</p>
      ) : (
        <div className="row">
          <select className="input" aria-label="Call to try on" value={callId} onChange={(e) => setPicked(e.target.value)}>
            {samples.data?.map((c) => (
              <option key={c.id} value={c.id}>
                {callName(c)} · {formatDateTime(c.started_at)}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="button"
            disabled={!callId || problem !== null || run.isPending}
            title={problem ?? undefined}
            onClick={() => run.mutate({ callId, val: toJudgeValue({ ...form, name: form.name || 'draft' }) })}
          >
            {run.isPending ? 'Trying…' : 'Try'}
          </button>
        </div>
      )}
      {run.error && (
        <p className="form-error" role="alert">
          {describeError(run.error).detail}
        </p>
      )}
      {answer && (
        <p className="small" role="status" aria-label="Judge answer">
          {answer.error ? (
            <span className="form-error">{answer.error}</span>
          ) : (
            <>
              Score <strong>{scoreText(answer.output)}</strong> in {answer.latency_seconds.toFixed(1)} s ·{' '}
              <Link to={`/${projectId}/traces/${answer.scorer_call_id}`} target="_blank" rel="noreferrer">
                the judge&apos;s call ↗
              </Link>
            </>
          )}
        </p>
      )}
      <p className="small muted">Nothing is saved: the score is not stored on the call.</p>
    </fieldset>
  );
}
