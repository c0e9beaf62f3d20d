/**
 * Adding whole conversations to a queue: the project's threads, searched by what their turns say
 * (the threads list's server-side search) and sorted by last activity or turns, each shown by its
 * first message, with the ones already in the queue marked and not offered again. Reviewers then
 * see each as a conversation; answers land on the thread's first turn (docs/dashboard.md "Pages").
 */
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState, type FormEvent } from 'react';
import { ModalDialog } from '../../../components/ui/ModalDialog.js';
import { api } from '../../../lib/api.js';
import { formatInteger, formatRelative, plural } from '../../../lib/format.js';
import { threadsCountQueryOptions, threadsListQueryOptions, type Thread, type ThreadsListReq } from '../../threads/threadQueries.js';
import { previewText } from '../../threads/threadText.js';
import { annotationKeys, queueItemsQueryOptions, type QueueItem } from '../annotationQueries.js';
import '../annotation.css';

/** The orders offered: the threads list's sort fields. */
const SORTS = {
  recent: { label: 'Last activity', sort: [{ field: 'last_updated', direction: 'desc' }] },
  turns: { label: 'Most turns', sort: [{ field: 'turn_count', direction: 'desc' }] },
  oldest: { label: 'Oldest first', sort: [{ field: 'start_time', direction: 'asc' }] },
} as const satisfies Record<string, { label: string; sort: ThreadsListReq['sort_by'] }>;
type SortKey = keyof typeof SORTS;

/** Whether a thread is in the queue already: as a thread item, or its first turn as a call item. */
export function queuedThreadIds(items: QueueItem[], threads: Thread[]): Set<string> {
  const threadIds = new Set(items.flatMap((i) => (i.thread_id ? [i.thread_id] : [])));
  const callIds = new Set(items.map((i) => i.call_id));
  return new Set(
    threads.filter((t) => threadIds.has(t.thread_id) || (t.first_turn_id && callIds.has(t.first_turn_id))).map((t) => t.thread_id),
  );
}

/** Add-threads dialog. */
export function AddThreadsDialog({ projectId, queueId, onClose }: { projectId: string; queueId: string; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<SortKey>('recent');
  const req: ThreadsListReq = useMemo(
    () => ({ project_id: projectId, filter: search ? { search } : null, sort_by: [...SORTS[sort].sort] }),
    [projectId, search, sort],
  );
  const threads = useInfiniteQuery({ ...threadsListQueryOptions(req), placeholderData: keepPreviousData });
  const total = useQuery({ ...threadsCountQueryOptions(req), placeholderData: keepPreviousData });
  const items = useQuery(queueItemsQueryOptions({ projectId, queueId }));
  const rows = useMemo(() => threads.data?.pages.flatMap((p) => p.rows) ?? [], [threads.data]);
  const queued = useMemo(() => queuedThreadIds(items.data ?? [], rows), [items.data, rows]);
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const add = useMutation({
    mutationFn: () => api.annotationQueueAddThreads({ project_id: projectId, queue_id: queueId, thread_ids: [...picked] }),
    onSuccess: async () => {
      setPicked(new Set());
      await queryClient.invalidateQueries({ queryKey: annotationKeys.project(projectId) });
    },
  });
  const toggle = (id: string) =>
    setPicked((p) => {
      const next = new Set(p);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  return (
    <ModalDialog title="Add threads to the queue" onClose={onClose} className="add-threads-dialog">
      <div className="modal-body">
        <div className="thread-picks-toolbar">
          <ThreadSearchBox search={search} onApply={setSearch} />
          <label className="thread-picks-sort">
            <span className="muted small">Sort</span>
            <select className="input" aria-label="Sort threads" value={sort} onChange={(e) => setSort(e.target.value as SortKey)}>
              {Object.entries(SORTS).map(([key, s]) => (
                <option key={key} value={key}>
                  {s.label}
                </option>
              ))}
            </select>
          </label>
        </div>
        <p className="muted small" aria-live="polite">
          {total.data !== undefined && `${plural(total.data, 'thread')}${search ? ` match “${search}”` : ''}`}
          {picked.size > 0 && ` · ${formatInteger(picked.size)} picked`}
        </p>
        {threads.isPending ? (
          <p className="muted">Loading threads…</p>
        ) : threads.error ? (
          <p className="form-error" role="alert">
            Could not load the threads: {threads.error.message}
          </p>
        ) : rows.length === 0 ? (
          <p className="muted">{search ? 'No thread matches this search.' : 'This project has no threads yet.'}</p>
        ) : (
          <ul className="thread-picks" aria-label="Threads">
            {rows.map((t) => (
              <ThreadPick
                key={t.thread_id}
                thread={t}
                queued={queued.has(t.thread_id)}
                picked={picked.has(t.thread_id)}
                onToggle={toggle}
              />
            ))}
            {threads.hasNextPage && (
              <li>
                <button
                  type="button"
                  className="button ghost small"
                  disabled={threads.isFetchingNextPage}
                  onClick={() => void threads.fetchNextPage()}
                >
                  {threads.isFetchingNextPage ? 'Loading…' : 'Show more'}
                </button>
              </li>
            )}
          </ul>
        )}
        {add.data && (
          <p role="status">
            Added {plural(add.data.added_count, 'thread')}
            {add.data.duplicates > 0 && ` (${formatInteger(add.data.duplicates)} already queued)`}.
          </p>
        )}
        {add.error && (
          <p className="form-error" role="alert">
            Could not add the threads: {add.error.message}
          </p>
        )}
      </div>
      <footer className="modal-footer">
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
        <button type="button" className="button primary" disabled={picked.size === 0 || add.isPending} onClick={() => add.mutate()}>
          Add {formatInteger(picked.size)} {picked.size === 1 ? 'thread' : 'threads'}
        </button>
      </footer>
    </ModalDialog>
  );
}

/** One thread: its first message, id, turns and last activity; a queued one cannot be picked. */
function ThreadPick({
  thread: t,
  queued,
  picked,
  onToggle,
}: {
  thread: Thread;
  queued: boolean;
  picked: boolean;
  onToggle: (id: string) => void;
}) {
  const first = previewText(t.first_input_preview, 'input');
  return (
    <li className={queued ? 'queued' : undefined}>
      <label>
        <input
          type="checkbox"
          aria-label={`${first ?? t.thread_id}${queued ? ' (already queued)' : ''}`}
          checked={queued || picked}
          disabled={queued}
          onChange={() => onToggle(t.thread_id)}
        />
        <span className="thread-pick-text">
          <span className="ellipsis">{first ?? <span className="muted">(no readable first message)</span>}</span>
          <span className="mono muted small ellipsis">{t.thread_id}</span>
        </span>
        <span className="muted small thread-pick-meta">
          {queued && <span className="state-pill completed">Already queued</span>} {plural(t.turn_count, 'turn')}
          {t.last_updated && ` · ${formatRelative(t.last_updated)}`}
        </span>
      </label>
    </li>
  );
}

/** Words from the turns (or an exact thread id), applied on Enter; clearing the box applies at once. */
function ThreadSearchBox({ search, onApply }: { search: string; onApply: (search: string) => void }) {
  const [text, setText] = useState(search);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply(text.trim());
  };
  return (
    <form role="search" onSubmit={submit} className="thread-picks-search">
      <input
        className="input"
        type="search"
        aria-label="Search threads"
        placeholder="Search what the turns say, then Enter"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          if (e.target.value === '' && search) onApply('');
        }}
      />
    </form>
  );
}
