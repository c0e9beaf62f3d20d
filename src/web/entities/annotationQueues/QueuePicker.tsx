/**
 * Which queue to add to: one of the project's queues, or a new one made on the spot by name, so
 * triage never has to leave the page to start a review (its questions are added later on the
 * queue's own page). Shared by every "Add to queue" (calls, threads, a thread).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Spinner } from '../../components/ui/Spinner.js';
import { api } from '../../lib/api.js';
import { annotationKeys, queuesQueryOptions, type Queue } from './queueQueries.js';
import './queuePicker.css';

/** The picker's value while a new queue is being named. */
export const NEW_QUEUE = '__new__';

/** Props: the chosen queue id ('' = the newest queue, NEW_QUEUE = one being named), and what a choice does. */
export interface QueuePickerProps {
  projectId: string;
  queueId: string;
  onQueueId: (id: string) => void;
  disabled?: boolean;
}

/** The queue a picker's value stands for: the chosen one, else the newest; nothing while one is being named or loaded. */
export function pickedQueue(queues: Queue[] | undefined, queueId: string): Queue | undefined {
  // A queue just created is not listed until the list refetches: nothing picked meanwhile.
  return queueId ? queues?.find((q) => q.id === queueId) : queues?.[0];
}

/** Queue select with a "New queue…" entry that shows a name field. */
export function QueuePicker({ projectId, queueId, onQueueId, disabled }: QueuePickerProps) {
  const { data: queues, isPending, error } = useQuery(queuesQueryOptions(projectId));
  const [name, setName] = useState('');
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (queueName: string) => api.annotationQueueCreate({ project_id: projectId, name: queueName.trim(), scorer_refs: [] }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: annotationKeys.project(projectId) }),
  });
  if (isPending) return <Spinner showLabel label="Loading queues" />;
  if (error) return <p className="form-error">Could not load the queues: {error.message}</p>;
  const none = queues.length === 0;
  const showForm = queueId === NEW_QUEUE || none;

  const create = () =>
    save.mutate(name, {
      onSuccess: ({ id }) => {
        setName('');
        onQueueId(id);
      },
    });

  return (
    <div className="queue-picker">
      {!none && (
        <label className="field">
          <span>Queue</span>
          <select
            className="input"
            value={queueId === NEW_QUEUE ? NEW_QUEUE : (pickedQueue(queues, queueId)?.id ?? '')}
            disabled={disabled}
            onChange={(e) => onQueueId(e.target.value)}
          >
            {queues.map((q) => (
              <option key={q.id} value={q.id}>
                {q.name}
              </option>
            ))}
            <option value={NEW_QUEUE}>New queue…</option>
          </select>
        </label>
      )}
      {none && <p className="small muted">This project has no annotation queues yet: name one to create it.</p>}
      {showForm && (
        <form
          className="queue-picker-new"
          onSubmit={(e) => {
            e.preventDefault();
            if (name.trim()) create();
          }}
        >
          <label className="field">
            <span>New queue</span>
            <input
              className="input"
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="e.g. Refund answers"
              disabled={disabled || save.isPending}
            />
          </label>
          <button type="submit" className="button" disabled={!name.trim() || disabled || save.isPending}>
            Create queue
          </button>
          {save.error && (
            <p className="form-error" role="alert">
              Could not create the queue: {save.error.message}
            </p>
          )}
        </form>
      )}
    </div>
  );
}
