/**
 * The playground (`/:entity/:project/playground`): edit messages and parameters, pick one or
 * more models, run them side by side on the same prompt through `/completions/create`; every
 * run is a tracked call linked from its answer. `?call=<id>` opens a logged LLM call with its
 * messages, parameters and model prefilled ("Open in playground" in the trace view);
 * `?prompt=<name>&v=<digest or alias>` opens a prompt version, its `{name}` variables filled in
 * when it runs, and saves the edit as a version (docs/prompts.md "In the playground"). With no
 * provider configured the page says what to configure.
 */
import { useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { ModelColumn } from './ModelColumn.js';
import { MessagesEditor } from './MessagesEditor.js';
import { modelsQueryOptions } from '../../entities/models/modelQueries.js';
import { prefillCallQueryOptions, prefillPromptQueryOptions, useRunCompletion } from './playgroundQueries.js';
import {
  completionInputs,
  DEFAULT_MESSAGES,
  DEFAULT_PARAMS,
  promptFromInputs,
  promptRefOfInputs,
  type PromptParams,
} from './promptModel.js';
import { fillVariables, messageVariables, playgroundFromPrompt, runByRef } from './promptObjects.js';
import { objectRef } from '../../lib/refs.js';
import { PromptVariables } from './PromptVariables.js';
import { SavePrompt } from './SavePrompt.js';
import { useCan } from '../auth/useCan.js';
import './playground.css';

const MAX_MODELS = 4;

/** The playground page. */
/** The numeric sampling parameters, with the ranges the OpenAI API accepts. */
const NUMBER_PARAMS = [
  { key: 'temperature', label: 'Temperature', step: '0.1', min: '0', max: '2' },
  { key: 'max_tokens', label: 'Max tokens', min: '1' },
  { key: 'top_p', label: 'Top p', step: '0.05', min: '0', max: '1' },
] as const;

export function PlaygroundPage() {
  const { entity, project } = useParams() as { entity: string; project: string };
  const projectId = `${entity}/${project}`;
  const [search] = useSearchParams();
  const { data: offered } = useSuspenseQuery(modelsQueryOptions(projectId));
  const { data: call } = useSuspenseQuery(prefillCallQueryOptions(projectId, search.get('call')));
  // A call that named a prompt version by ref opens that version, its own messages after it.
  const callPrompt = search.get('prompt') ? null : promptRefOfInputs(call?.inputs);
  const { data: prompt } = useSuspenseQuery(
    prefillPromptQueryOptions(projectId, search.get('prompt') ?? callPrompt?.name ?? null, callPrompt?.digest ?? search.get('v')),
  );
  const fromPrompt = prompt ? playgroundFromPrompt(prompt.val) : null;
  const fromCall = promptFromInputs(call?.inputs);
  const prefill =
    fromPrompt && callPrompt
      ? { ...fromPrompt, ...fromCall, messages: [...fromPrompt.messages, ...(fromCall?.messages ?? [])] }
      : (fromPrompt ?? fromCall);
  const models = offered.models;
  const prefilledModel = prefill?.model ? (models.find((m) => m.id === prefill.model || m.model === prefill.model)?.id ?? null) : null;

  const [messages, setMessages] = useState(prefill?.messages ?? DEFAULT_MESSAGES);
  const [params, setParams] = useState<PromptParams>(prefill?.params ?? DEFAULT_PARAMS);
  const [chosen, setChosen] = useState<string[]>([prefilledModel ?? models[0]?.id ?? '']);
  const [values, setValues] = useState<Record<string, string>>(callPrompt?.values ?? {});
  const runs = [useRunCompletion(projectId), useRunCompletion(projectId), useRunCompletion(projectId), useRunCompletion(projectId)];
  const projectPath = `/${entity}/${project}`;
  // A run is a completion tracked as a call in the project.
  const run = useCan(projectId)('completionsCreate');

  if (!offered.configured || models.length === 0) {
    return (
      <div className="page playground-page">
        <header className="page-header">
          <h1>Playground</h1>
        </header>
        <section className="card" role="status" aria-label="No model provider">
          <h2>No model to run yet</h2>
          <p>{offered.help ?? 'The configured providers offer no models.'}</p>
          {offered.errors.map((e) => (
            <p key={e.provider} className="form-error">
              {e.provider}: {e.message}
            </p>
          ))}
          <p>
            <Link to={`${projectPath}/settings#providers`}>Add a model provider in Settings</Link> — for example a local Ollama at{' '}
            <code>http://localhost:11434/v1</code>.
          </p>
        </section>
      </div>
    );
  }

  // A prompt with nothing but a system message (or blank messages) has nothing to answer.
  const hasMessage = messages.some((m) => m.role !== 'system' && m.content.trim() !== '');
  const variables = messageVariables(messages);
  const filled = fillVariables(messages, values);
  const opened =
    prompt && fromPrompt
      ? { val: prompt.val, ref: objectRef({ projectId, kind: 'object', name: prompt.object_id, digest: prompt.digest }) }
      : null;
  const byRef = runByRef(opened, messages, values);
  const runAll = () =>
    chosen.forEach((model, i) =>
      runs[i]!.mutate(byRef ? { ...completionInputs(model, [], params), ...byRef } : completionInputs(model, filled, params)),
    );
  const setParam = (key: 'temperature' | 'max_tokens' | 'top_p', value: string) =>
    setParams((p) => ({ ...p, [key]: value === '' ? null : Number(value) }));

  return (
    <div className="page playground-page">
      <header className="page-header">
        <h1>Playground</h1>
        {prompt && fromPrompt ? (
          <p className="muted">
            Opened from prompt{' '}
            <Link to={`${projectPath}/prompts/${encodeURIComponent(prompt.object_id)}?v=${prompt.digest}`}>
              {prompt.object_id} v{prompt.version_index}
            </Link>
          </p>
        ) : prompt ? (
          <p className="form-error">{prompt.object_id} holds no messages the playground can edit.</p>
        ) : search.get('prompt') || callPrompt ? (
          <p className="form-error">
            Prompt {search.get('prompt') ?? callPrompt?.name} {search.get('v') ?? callPrompt?.digest.slice(0, 8) ?? ''} was not found.
          </p>
        ) : (
          call && <p className="muted">Opened from call {call.id.slice(-8)}</p>
        )}
      </header>
      <div className="playground-layout">
        <section className="card playground-prompt" aria-label="Prompt">
          <MessagesEditor messages={messages} onChange={setMessages} />
          <PromptVariables names={variables} values={values} onChange={setValues} />
          <fieldset className="playground-params">
            <legend>Parameters</legend>
            {NUMBER_PARAMS.map(({ key, label, ...bounds }) => (
              <label className="field" key={key}>
                <span>{label}</span>
                <input
                  className="input"
                  type="number"
                  {...bounds}
                  value={params[key] ?? ''}
                  onChange={(e) => setParam(key, e.target.value)}
                />
              </label>
            ))}
            <label className="checkbox">
              <input type="checkbox" checked={params.json} onChange={(e) => setParams((p) => ({ ...p, json: e.target.checked }))} /> JSON
              output
            </label>
          </fieldset>
          <div className="row">
            <button
              type="button"
              className="button primary"
              onClick={runAll}
              disabled={!run.allowed || !hasMessage || runs.some((r) => r.isPending)}
              title={run.reason ?? (hasMessage ? undefined : 'Write a user message first')}
            >
              Run
            </button>
            {run.allowed && !hasMessage && <span className="muted small">Write a user message to run the prompt.</span>}
            {chosen.length < MAX_MODELS && (
              <button type="button" className="button" onClick={() => setChosen((c) => [...c, models[c.length % models.length]!.id])}>
                Add model to compare
              </button>
            )}
          </div>
          <SavePrompt
            projectId={projectId}
            opened={prompt && fromPrompt ? { objectId: prompt.object_id, versionIndex: prompt.version_index, val: prompt.val } : null}
            messages={messages}
          />
        </section>
        <div className="playground-columns">
          {chosen.map((model, i) => (
            <ModelColumn
              key={i}
              index={i}
              models={models}
              model={model}
              onModel={(m) => setChosen((c) => c.map((x, j) => (j === i ? m : x)))}
              onRemove={chosen.length > 1 ? () => setChosen((c) => c.filter((_, j) => j !== i)) : null}
              run={runs[i]!}
              projectId={projectId}
              projectPath={projectPath}
            />
          ))}
        </div>
      </div>
    </div>
  );
}
