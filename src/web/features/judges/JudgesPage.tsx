/**
 * Judges (`/:entity/:project/judges`): the project's LLM judges (`LLMAsAJudgeScorer`) and the
 * models they run on (`LLMStructuredCompletionModel`), each at its latest version, with editors
 * that save a new version and a link to the object's version history, and how well each judge
 * agrees with human reviewers. Judges are what "Score with…" on the Calls page, monitors and
 * evaluations run.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { ListTable } from '../../components/table/ListTable.js';
import { formatRelative } from '../../lib/format.js';
import { modelsQueryOptions } from '../../entities/models/modelQueries.js';
import { JudgeAgreement } from './JudgeAgreement.js';
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
import { useCan } from '../auth/useCan.js';
import './judges.css';

type Editing = { kind: 'judge'; form: JudgeForm; existing: boolean } | { kind: 'model'; form: ModelForm; existing: boolean } | null;

export function JudgesPage() {
  const { entity = '', project = '' } = useParams();
  const projectId = `${entity}/${project}`;
  const judges = useQuery(latestObjectsQueryOptions(projectId, JUDGE_CLASS));
  const models = useQuery(latestObjectsQueryOptions(projectId, MODEL_CLASS));
  const offered = useQuery(modelsQueryOptions(projectId));
  const [editing, setEditing] = useState<Editing>(null);
  // Judges and models are objects: saving one is an object write.
  const save = useCan(projectId)('objCreate');
  const history = (o: LlmObject) => `/${projectId}/objects/${encodeURIComponent(o.name)}`;

  return (
    <div className="page judges-page">
      <header className="page-header">
        <h1>Judges</h1>
        <div className="spacer" />
        <button
          type="button"
          className="button"
          disabled={!save.allowed}
          title={save.reason ?? undefined}
          onClick={() => setEditing({ kind: 'model', form: emptyModelForm(offered.data?.models[0]?.id ?? ''), existing: false })}
        >
          New model
        </button>
        <button
          type="button"
          className="button primary"
          disabled={!save.allowed}
          title={save.reason ?? undefined}
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
        <ListTable
          items={judges.data}
          pending={judges.isPending}
          noun="judges"
          label="Judges"
          head={
            <>
              <th>Name</th>
              <th>Model</th>
              <th>Scoring prompt</th>
              <VersionHead />
            </>
          }
          row={(j) => (
            <tr key={j.name}>
              <td className="mono">{j.name}</td>
              <td>{typeof j.val.model === 'string' ? refObjectName(j.val.model) : 'inline'}</td>
              <td className="prompt-cell" title={String(j.val.scoring_prompt ?? '')}>
                {String(j.val.scoring_prompt ?? '')}
              </td>
              <VersionCells
                object={j}
                history={history(j)}
                editLabel={`Edit judge ${j.name}`}
                onEdit={save.allowed ? () => setEditing({ kind: 'judge', form: fromJudgeValue(j.name, j.val), existing: true }) : null}
              />
            </tr>
          )}
        />
      </section>

      <JudgeAgreement projectId={projectId} />

      <section className="card" aria-label="Judge models">
        <h2>Models</h2>
        <p className="muted small">
          A model is a provider model with its prompt and parameters. Judges run on one; evaluations from the browser evaluate one.
        </p>
        <ListTable
          items={models.data}
          pending={models.isPending}
          noun="models"
          label="Models"
          head={
            <>
              <th>Name</th>
              <th>Provider model</th>
              <th>Answers</th>
              <VersionHead />
            </>
          }
          row={(m) => {
            const form = fromModelValue(m.name, m.val);
            return (
              <tr key={m.name}>
                <td className="mono">{m.name}</td>
                <td className="mono">{form.llmModelId}</td>
                <td>{form.responseFormat === 'json' ? 'JSON' : 'Text'}</td>
                <VersionCells
                  object={m}
                  history={history(m)}
                  editLabel={`Edit model ${m.name}`}
                  onEdit={save.allowed ? () => setEditing({ kind: 'model', form, existing: true }) : null}
                />
              </tr>
            );
          }}
        />
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

/** The header cells of VersionCells. */
function VersionHead() {
  return (
    <>
      <th>Version</th>
      <th>Saved</th>
      <th />
    </>
  );
}

/** The latest version (linking to the object's history), when it was saved, and Edit. */
function VersionCells({
  object,
  history,
  editLabel,
  onEdit,
}: {
  object: LlmObject;
  history: string;
  editLabel: string;
  /** Null when the caller may not save a new version. */
  onEdit: (() => void) | null;
}) {
  return (
    <>
      <td>
        <Link to={history} aria-label={`Versions of ${object.name}`}>
          v{object.version}
        </Link>
      </td>
      <td className="muted">{formatRelative(object.createdAt)}</td>
      <td>
        {onEdit && (
          <button type="button" className="button small" aria-label={editLabel} onClick={onEdit}>
            Edit
          </button>
        )}
      </td>
    </>
  );
}
