/**
 * "Add to queue" on the Calls page: the selected calls, or every call matching the current
 * filters (thousands at once, in batches, with progress and a way to stop), into a queue. The
 * run's state lives outside the panel, so closing the panel does not lose it; the queues are
 * fetched only when the panel opens.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { describeError } from '../../../components/ui/ErrorState.js';
import { Popover } from '../../../components/ui/Popover.js';
import { formatInteger } from '../../../lib/format.js';
import type { CallsListReq } from '../../../entities/calls/callQueries.js';
import { ADD_BATCH, addCallsToQueue, type AddProgress, type CallSource } from './addCallsToQueue.js';
import { annotationKeys, queuesQueryOptions, type Queue } from '../annotationQueries.js';
import { shownFields } from '../displayFields.js';
import { pickedQueue, QueuePicker } from '../../../entities/annotationQueues/QueuePicker.js';
import '../annotation.css';

/** Props: the calls view's request and total, and the selected call ids. */
export interface AddToQueueMenuProps {
  projectId: string;
  req: CallsListReq;
  total: number | null;
  selectedIds: string[];
}

/** What one run added, and where. */
interface RunVars {
  queue: Queue;
  source: CallSource;
  displayFields: string[];
}

/** Add-to-queue button and panel. The queues load only once the panel opens. */
export function AddToQueueMenu({ projectId, req, total, selectedIds }: AddToQueueMenuProps) {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<AddProgress | null>(null);
  const abort = useRef<AbortController | null>(null);
  const run = useMutation({
    mutationFn: ({ queue, source, displayFields }: RunVars) => {
      abort.current = new AbortController();
      setProgress(null);
      return addCallsToQueue({
        projectId,
        queueId: queue.id,
        source,
        displayFields,
        onProgress: setProgress,
        signal: abort.current.signal,
      });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: annotationKeys.project(projectId) }),
  });
  // Kept here, not in the panel, so closing and reopening the panel keeps the choices.
  const [queueId, setQueueId] = useState('');
  // null: follow the selection (selected calls when there are any), until a scope is picked.
  const [scope, setScope] = useState<'selected' | 'filtered' | null>(null);
  const effectiveScope = (scope ?? 'selected') === 'selected' && selectedIds.length > 0 ? 'selected' : 'filtered';
  const source: CallSource = effectiveScope === 'selected' ? { kind: 'ids', ids: selectedIds } : { kind: 'query', req, total: total ?? 0 };
  const cancelled = run.error instanceof DOMException && run.error.name === 'AbortError';

  return (
    <Popover label={run.isPending ? 'Adding to queue…' : 'Add to queue'} className="button" align="end">
      {() => (
        <div className="menu add-to-queue">
          <QueueChoice
            projectId={projectId}
            queueId={queueId}
            onQueueId={setQueueId}
            busy={run.isPending}
            count={effectiveScope === 'selected' ? selectedIds.length : (total ?? 0)}
            onStart={(queue, displayFields) => run.mutate({ queue, source, displayFields })}
            onStop={() => abort.current?.abort()}
          >
            <fieldset className="radio-group" disabled={run.isPending}>
              <legend>Calls</legend>
              <label>
                <input
                  type="radio"
                  name="queue-scope"
                  checked={effectiveScope === 'selected'}
                  disabled={selectedIds.length === 0}
                  onChange={() => setScope('selected')}
                />
                Selected ({formatInteger(selectedIds.length)})
              </label>
              <label>
                <input type="radio" name="queue-scope" checked={effectiveScope === 'filtered'} onChange={() => setScope('filtered')} />
                All {total !== null ? formatInteger(total) : ''} matching the filters
              </label>
            </fieldset>
          </QueueChoice>
          {progress && (run.isPending || progress.total > ADD_BATCH) && (
            <div className="add-progress">
              <progress max={Math.max(progress.total, 1)} value={progress.done} aria-label="Calls added" />
              <span className="small muted">
                {formatInteger(progress.done)} of {formatInteger(progress.total)}
              </span>
            </div>
          )}
          {run.isSuccess && (
            <p className="small" role="status">
              Added {formatInteger(run.data.added)} to {run.variables.queue.name}
              {run.data.duplicates > 0 ? ` (${formatInteger(run.data.duplicates)} already queued)` : ''}.{' '}
              <Link to={`/${projectId}/annotation/${run.variables.queue.id}/review`}>Start reviewing →</Link>
            </p>
          )}
          {cancelled && progress && (
            <p className="small" role="status">
              Stopped after {formatInteger(progress.done)} calls ({formatInteger(progress.added)} added).
            </p>
          )}
          {run.error && !cancelled && (
            <p className="form-error" role="alert">
              {describeError(run.error).title}: {describeError(run.error).detail}
            </p>
          )}
        </div>
      )}
    </Popover>
  );
}

/** The queue picker, the scope (as children), the fields reviewers will see, and the start button. */
function QueueChoice(props: {
  projectId: string;
  queueId: string;
  onQueueId: (id: string) => void;
  busy: boolean;
  count: number;
  onStart: (queue: Queue, displayFields: string[]) => void;
  onStop: () => void;
  children: ReactNode;
}) {
  const { projectId, busy } = props;
  const { data: queues } = useQuery(queuesQueryOptions(projectId));
  const queue = pickedQueue(queues, props.queueId);
  const fields = shownFields(queue?.display_fields);
  return (
    <>
      <QueuePicker projectId={projectId} queueId={props.queueId} onQueueId={props.onQueueId} disabled={busy} />
      {props.children}
      {queue && (
        <p className="small muted">
          Reviewers see <span className="mono">{fields.join(', ')}</span>.
        </p>
      )}
      {busy ? (
        <button type="button" className="button wide" onClick={props.onStop}>
          Stop
        </button>
      ) : (
        <button
          type="button"
          className="button primary wide"
          disabled={!queue || props.count === 0}
          onClick={() => queue && props.onStart(queue, fields)}
        >
          Add {formatInteger(props.count)} {props.count === 1 ? 'call' : 'calls'}
        </button>
      )}
    </>
  );
}
