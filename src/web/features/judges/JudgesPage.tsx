/**
 * Judges (`/:entity/:project/judges`): the project's LLM judges (`LLMAsAJudgeScorer`) and the
 * models they run on (`LLMStructuredCompletionModel`), each at its latest version, with editors
 * that save a new version and a link to the object's version history. Judges are what "Score
 * with…" on the Calls page, monitors and evaluations run.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { Spinner } from '../../components/ui/Spinner.js';
import { formatRelative } from '../../lib/format.js';
import { modelsQueryOptions } from '../playground/playgroundQueries.js';
import { JudgeEditor } from './JudgeEditor.js';
import {
  DEFAULT_SCORING_PROMPT,
  emptyModelForm,
  fromJudgeValue,
  fromModelValue,
  JUDGE_CLASS,
  MODEL_CLASS,
  refObjectName,
  type JudgeForm,
  type ModelForm,
} from './judgeObjects.js';
import { latestObjectsQueryOptions, type LlmObject } from './judgeQueries.js';
import { ModelEditor } from './ModelEditor.js';
import './judges.css';

type Editing = { kind: 'judge'; form: JudgeForm; existing: boolean } | { kind: 'model'; form: ModelForm; existing: boolean } | null;

export function JudgesPage() {
  const { entity = '', project = '' } = useParams();
  const projectId = `${entity}/${project}`;
  const judges = useQuery(latestObjectsQueryOptions(projectId, JUDGE_CLASS));
  const models = useQuery(latestObjectsQueryOptions(projectId, MODEL_CLASS));
  const offered = useQuery(modelsQueryOptions(projectId));
  const [editing, setEditing] = useState<Editing>(null);
  const history = (o: LlmObject) => `/${projectId}/objects/${encodeURIComponent(o.name)}`;

  return (
    <div className="page judges-page">
      <header className="page-header">
        <h1>Judges</h1>
        <div className="spacer" />
        <button
          type="button"
          className="button"
          onClick={() => setEditing({ kind: 'model', form: emptyModelForm(offered.data?.models[0]?.id ?? ''), existing: false })}
        >
          New model
        </button>
        <button
          type="button"
          className="button primary"
          onClick={() =>
            setEditing({
              kind: 'judge',
              form: { name: '', modelRef: models.data?.[0]?.ref ?? '', scoringPrompt: DEFAULT_SCORING_PROMPT },
              existing: false,
            })
          }
        >
          New judge
        </button>
      </header>
      {offered.data && !offered.data.configured && (
        <div className="notice" role="status">
          <span>
            Judges need a model provider. {offered.data.help} <Link to={`/${projectId}/settings#providers`}>Add a model provider</Link>
          </span>
        </div>
      )}

      <section className="card" aria-label="LLM judges">
        <h2>LLM judges</h2>
        <p className="muted small">
          An LLM judge scores a call&apos;s output with a prompt and a model. Use it from the <Link to={`/${projectId}/calls`}>Calls</Link>{' '}
          page (“Score with…”), in a <Link to={`/${projectId}/monitors`}>monitor</Link>, or as a scorer of an evaluation.
        </p>
        {judges.isPending ? (
          <Spinner showLabel label="Loading judges" />
        ) : !judges.data?.length ? (
          <p className="muted">No judges yet.</p>
        ) : (
          <table className="simple-table" aria-label="Judges">
            <thead>
              <tr>
                <th>Name</th>
                <th>Model</th>
                <th>Scoring prompt</th>
                <th>Version</th>
                <th>Saved</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {judges.data.map((j) => (
                <tr key={j.name}>
                  <td className="mono">{j.name}</td>
                  <td>{typeof j.val.model === 'string' ? refObjectName(j.val.model) : 'inline'}</td>
                  <td className="prompt-cell" title={String(j.val.scoring_prompt ?? '')}>
                    {String(j.val.scoring_prompt ?? '')}
                  </td>
                  <td>
                    <Link to={history(j)} aria-label={`Versions of ${j.name}`}>
                      v{j.version}
                    </Link>
                  </td>
                  <td className="muted">{formatRelative(j.createdAt)}</td>
                  <td>
                    <button
                      type="button"
                      className="button small"
                      aria-label={`Edit judge ${j.name}`}
                      onClick={() => setEditing({ kind: 'judge', form: fromJudgeValue(j.name, j.val), existing: true })}
                    >
                      Edit
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section className="card" aria-label="Judge models">
        <h2>Models</h2>
        <p className="muted small">
          A model is a provider model with its prompt and parameters. Judges run on one; evaluations from the browser evaluate one.
        </p>
        {models.isPending ? (
          <Spinner showLabel label="Loading models" />
        ) : !models.data?.length ? (
          <p className="muted">No models yet.</p>
        ) : (
          <table className="simple-table" aria-label="Models">
            <thead>
              <tr>
                <th>Name</th>
                <th>Provider model</th>
                <th>Answers</th>
                <th>Version</th>
                <th>Saved</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {models.data.map((m) => {
                const form = fromModelValue(m.name, m.val);
                return (
                  <tr key={m.name}>
                    <td className="mono">{m.name}</td>
                    <td className="mono">{form.llmModelId}</td>
                    <td>{form.responseFormat === 'json' ? 'JSON' : 'Text'}</td>
                    <td>
                      <Link to={history(m)} aria-label={`Versions of ${m.name}`}>
                        v{m.version}
                      </Link>
                    </td>
                    <td className="muted">{formatRelative(m.createdAt)}</td>
                    <td>
                      <button
                        type="button"
                        className="button small"
                        aria-label={`Edit model ${m.name}`}
                        onClick={() => setEditing({ kind: 'model', form, existing: true })}
                      >
                        Edit
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </section>

      {editing?.kind === 'judge' && (
        <JudgeEditor
          projectId={projectId}
          initial={editing.form}
          existing={editing.existing}
          models={models.data ?? []}
          onClose={() => setEditing(null)}
        />
      )}
      {editing?.kind === 'model' && (
        <ModelEditor projectId={projectId} initial={editing.form} existing={editing.existing} onClose={() => setEditing(null)} />
      )}
    </div>
  );
}
