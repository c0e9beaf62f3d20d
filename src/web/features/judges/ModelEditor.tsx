/**
 * The editor of an `LLMStructuredCompletionModel`: the provider model it calls, its system
 * prompt and optional user template, temperature, max tokens and response format (json for
 * judges that answer with a score object). Saving stores a new version; the name is fixed once
 * saved. With no provider configured it says what to configure.
 */
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { ModalDialog } from '../../components/ui/ModalDialog.js';
import { modelsQueryOptions } from '../../entities/models/modelQueries.js';
import { EditorActions } from '../../components/ui/EditorActions.js';
import { nameProblem, toModelValue, type ModelForm } from './judgeObjects.js';
import { useSaveObject } from './judgeQueries.js';
import './judges.css';

export function ModelEditor(props: { projectId: string; initial: ModelForm; existing: boolean; onClose: () => void }) {
  const { projectId } = props;
  const offered = useQuery(modelsQueryOptions(projectId));
  const [form, setForm] = useState(props.initial);
  const set = (patch: Partial<ModelForm>) => setForm((f) => ({ ...f, ...patch }));
  const save = useSaveObject(projectId);
  const problem = nameProblem(form.name) ?? (form.llmModelId ? null : 'Pick the provider model it calls.');
  const models = offered.data?.models ?? [];
  // A saved id no provider offers any more stays selectable, so editing does not change it silently.
  const ids =
    form.llmModelId && !models.some((m) => m.id === form.llmModelId)
      ? [form.llmModelId, ...models.map((m) => m.id)]
      : models.map((m) => m.id);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!problem) save.mutate({ name: form.name, val: toModelValue(form) }, { onSuccess: props.onClose });
  };

  return (
    <ModalDialog title={props.existing ? `Edit model ${form.name}` : 'New judge model'} onClose={props.onClose} className="judge-editor">
      <form className="form-stack" onSubmit={submit}>
        {offered.data && !offered.data.configured && (
          <p role="status" className="notice">
            {offered.data.help} <Link to={`/${projectId}/settings#providers`}>Add a model provider</Link>
          </p>
        )}
        <label className="field">
          <span>Name</span>
          <input className="input" value={form.name} disabled={props.existing} onChange={(e) => set({ name: e.target.value })} />
        </label>
        <label className="field">
          <span>Provider model</span>
          <select className="input" value={form.llmModelId} onChange={(e) => set({ llmModelId: e.target.value })}>
            <option value="">Choose…</option>
            {ids.map((id) => (
              <option key={id} value={id}>
                {id}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>System prompt</span>
          <textarea className="input" rows={4} value={form.systemPrompt} onChange={(e) => set({ systemPrompt: e.target.value })} />
        </label>
        <label className="field">
          <span>User message template (optional)</span>
          <textarea
            className="input"
            rows={2}
            placeholder="Sent before the judge's prompt; {placeholders} are filled from the model's inputs"
            value={form.userTemplate}
            onChange={(e) => set({ userTemplate: e.target.value })}
          />
        </label>
        <div className="row">
          <label className="field">
            <span>Temperature</span>
            <input
              className="input"
              type="number"
              step="0.1"
              min="0"
              max="2"
              value={form.temperature}
              onChange={(e) => set({ temperature: e.target.value })}
            />
          </label>
          <label className="field">
            <span>Max tokens</span>
            <input className="input" type="number" min="1" value={form.maxTokens} onChange={(e) => set({ maxTokens: e.target.value })} />
          </label>
          <label className="field">
            <span>Response format</span>
            <select
              className="input"
              value={form.responseFormat}
              onChange={(e) => set({ responseFormat: e.target.value as ModelForm['responseFormat'] })}
            >
              <option value="json">JSON object (scores)</option>
              <option value="text">Text</option>
            </select>
          </label>
        </div>
        <EditorActions
          problem={problem}
          started={!!form.name}
          error={save.error}
          pending={save.isPending}
          submitLabel={props.existing ? 'Save new version' : 'Save model'}
          onCancel={props.onClose}
        />
      </form>
    </ModalDialog>
  );
}
