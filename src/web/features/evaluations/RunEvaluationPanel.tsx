/**
 * "Run evaluation": pick an Evaluation (its scorers LLM judges) and an LLMStructuredCompletionModel
 * of the project, start `/evaluations/evaluate_model`, follow `/evaluations/status` (rows done of
 * total) live, and go to the run page when it completes. With no model provider it says what to set up.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { describeError } from '../../components/ui/ErrorState.js';
import { evaluationOnDataset } from '../../../client/datasetVersions.js';
import { api } from '../../lib/api.js';
import { parseRef, shortDigest } from '../../lib/refs.js';
import { modelsQueryOptions } from '../../entities/models/modelQueries.js';
import { evaluationKeys } from './evaluationQueries.js';
import { launchKeys, objectRefsOptions } from './launchQueries.js';
import './evaluations.css';

/**
 * The launch card with live progress. With `datasetRef` (a dataset page's "Run evaluation on
 * this version") the chosen Evaluation runs over that dataset version.
 */
export function RunEvaluationPanel({
  projectId,
  onClose,
  datasetRef = null,
}: {
  projectId: string;
  onClose: () => void;
  datasetRef?: string | null;
}) {
  const queryClient = useQueryClient();
  const models = useQuery(modelsQueryOptions(projectId));
  const evaluations = useQuery(objectRefsOptions(projectId, 'Evaluation'));
  const llmModels = useQuery(objectRefsOptions(projectId, 'LLMStructuredCompletionModel'));
  const [evaluation, setEvaluation] = useState('');
  const parsedDataset = datasetRef ? parseRef(datasetRef) : null;
  const dataset = parsedDataset?.kind === 'object' ? parsedDataset : null;
  const [model, setModel] = useState('');
  const start = useMutation({
    mutationFn: async () => {
      const chosen = evaluation || evaluations.data![0]!.ref;
      return api.evaluateModel({
        project_id: projectId,
        evaluation_ref: datasetRef ? await evaluationOnDataset(api, projectId, chosen, datasetRef) : chosen,
        model_ref: model || llmModels.data![0]!.ref,
      });
    },
  });
  const callId = start.data?.call_id ?? null;
  const status = useQuery({
    queryKey: launchKeys.status(projectId, callId),
    enabled: callId !== null,
    queryFn: async ({ signal }) => (await api.evaluationStatus({ project_id: projectId, call_id: callId! }, { signal })).status,
    refetchInterval: (q) => {
      const code = q.state.data?.code;
      if (code === 'complete' || code === 'failed') {
        void queryClient.invalidateQueries({ queryKey: evaluationKeys.all });
        return false;
      }
      return 500;
    },
  });
  const s = status.data;
  // A finished evaluation ends in its run page (the summary, rows and scores); a failed one stays
  // here with the reason and a link to what it wrote.
  const navigate = useNavigate();
  const finished = callId !== null && s?.code === 'complete';
  useEffect(() => {
    if (finished) void navigate(`/${projectId}/evaluations/runs/${callId}`);
  }, [finished, navigate, projectId, callId]);

  return (
    <section className="card run-evaluation" aria-label="Run evaluation">
      <h2>Run an evaluation</h2>
      {dataset && (
        <p aria-label="Dataset version">
          On dataset <span className="mono">{dataset.name}</span> version <span className="mono">{shortDigest(dataset.digest)}</span>: the
          Evaluation is saved again with this dataset when it names another.
        </p>
      )}
      {models.data && !models.data.configured ? (
        <p role="status">
          {models.data.help} <Link to={`/${projectId}/settings#providers`}>Add a model provider</Link>
        </p>
      ) : (
        <>
          <div className="row">
            <label className="field">
              <span>Evaluation</span>
              <select className="input" aria-label="Evaluation" value={evaluation} onChange={(e) => setEvaluation(e.target.value)}>
                {(evaluations.data ?? []).map((o) => (
                  <option key={o.ref} value={o.ref}>
                    {o.name}
                  </option>
                ))}
              </select>
            </label>
            <label className="field">
              <span>Model</span>
              <select className="input" aria-label="Model to evaluate" value={model} onChange={(e) => setModel(e.target.value)}>
                {(llmModels.data ?? []).map((o) => (
                  <option key={o.ref} value={o.ref}>
                    {o.name}
                  </option>
                ))}
              </select>
            </label>
            <button
              type="button"
              className="button primary"
              disabled={
                start.isPending || !evaluations.data?.length || !llmModels.data?.length || (callId !== null && s?.code === 'running')
              }
              onClick={() => start.mutate()}
            >
              Start
            </button>
            <button type="button" className="button" onClick={onClose}>
              Close
            </button>
          </div>
          {(evaluations.data?.length === 0 || llmModels.data?.length === 0) && (
            <p className="muted">
              This needs an Evaluation whose scorers are LLM judges and an LLMStructuredCompletionModel in the project.
            </p>
          )}
        </>
      )}
      {start.error && (
        <p className="form-error" role="alert">
          {describeError(start.error).detail}
        </p>
      )}
      {callId && (
        <div role="status" aria-label="Evaluation progress">
          {(!s || s.code === 'not_found') && <p>Starting…</p>}
          {s?.code === 'running' && (
            <p>
              <progress max={s.total_rows || 1} value={s.completed_rows} /> {s.completed_rows} of {s.total_rows} rows
            </p>
          )}
          {s?.code === 'failed' && <p className="form-error">Failed: {s.error}</p>}
          {(s?.code === 'complete' || s?.code === 'failed') && <Link to={`/${projectId}/evaluations/runs/${callId}`}>Open the run</Link>}
        </div>
      )}
    </section>
  );
}
