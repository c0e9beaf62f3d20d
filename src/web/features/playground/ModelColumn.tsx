/** One model of the playground: its model picker, its last answer (or error), tokens, and a link to the tracked call. */
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import type { OfferedModel } from '../../../contract/providers.js';
import { describeError } from '../../components/ui/ErrorState.js';
import { callCost, callLatencyMs } from '../../entities/calls/callFields.js';
import { callQueryOptions } from '../../entities/calls/callQueries.js';
import { formatCost, formatDuration } from '../../lib/format.js';
import { responseText } from './promptModel.js';
import type { useRunCompletion } from './playgroundQueries.js';
import './playground.css';

type Run = ReturnType<typeof useRunCompletion>;

/** A column: pick a model, see what it answered. */
export function ModelColumn({
  index,
  models,
  model,
  onModel,
  onRemove,
  run,
  projectId,
  projectPath,
}: {
  index: number;
  models: OfferedModel[];
  model: string;
  onModel: (model: string) => void;
  onRemove: (() => void) | null;
  run: Run;
  projectId: string;
  projectPath: string;
}) {
  const data = run.data;
  const error = data?.response.error;
  const usage = data?.response.usage as { prompt_tokens?: number; completion_tokens?: number } | undefined;
  // Latency and cost as the Calls page shows them: from the tracked call, priced by the server.
  const callId = data?.weave_call_id ?? '';
  const tracked = useQuery({ ...callQueryOptions({ projectId, id: callId }), enabled: callId !== '' });
  const latency = tracked.data ? callLatencyMs(tracked.data) : null;
  const cost = tracked.data ? callCost(tracked.data) : null;
  return (
    <section className="card playground-column" aria-label={`Model ${index + 1}`}>
      <div className="row">
        <label className="field">
          <span>Model {index + 1}</span>
          <select className="input" aria-label={`Model ${index + 1}`} value={model} onChange={(e) => onModel(e.target.value)}>
            {models.map((m) => (
              <option key={m.id} value={m.id}>
                {m.id}
              </option>
            ))}
          </select>
        </label>
        {onRemove && (
          <button type="button" className="button small" onClick={onRemove} aria-label={`Remove model ${index + 1}`}>
            Remove
          </button>
        )}
      </div>
      <div className="playground-answer" role="region" aria-label={`Answer of model ${index + 1}`} aria-busy={run.isPending}>
        {run.isPending && <p className="muted">Running…</p>}
        {run.error && (
          <p className="form-error" role="alert">
            {describeError(run.error).detail}
          </p>
        )}
        {typeof error === 'string' && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        {data && !error && <pre className="playground-text">{responseText(data.response)}</pre>}
        {!data && !run.isPending && !run.error && <p className="muted">Run the prompt to see this model’s answer.</p>}
      </div>
      {data && (
        <p className="muted playground-meta">
          {usage && (
            <span>
              {usage.prompt_tokens ?? 0} prompt + {usage.completion_tokens ?? 0} completion tokens ·{' '}
            </span>
          )}
          {latency !== null && <span>{formatDuration(latency)} · </span>}
          {tracked.data && (
            <span title={cost === null ? 'No price for this model: add one in Settings' : undefined}>
              {cost === null ? 'no price' : formatCost(cost)} ·{' '}
            </span>
          )}
          {data.weave_call_id ? <Link to={`${projectPath}/traces/${data.weave_call_id}`}>View the call</Link> : 'Not tracked'}
        </p>
      )}
    </section>
  );
}
