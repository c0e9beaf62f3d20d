/**
 * "Score with…" on the Calls page: pick an LLM judge and score the selected calls, or the
 * newest calls matching the current filters (up to MAX_CALLS), through `/weft/calls/score` — a
 * background job on the server. Its progress is followed here; when it ends the calls list is
 * refreshed and the scores show in the Scores column. With no provider or no judge it says what
 * to set up.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { describeError } from '../../components/ui/ErrorState.js';
import { Popover } from '../../components/ui/Popover.js';
import { Spinner } from '../../components/ui/Spinner.js';
import { api, collect } from '../../lib/api.js';
import { formatInteger } from '../../lib/format.js';
import { callKeys, type CallsListReq } from '../../entities/calls/callQueries.js';
import { modelsQueryOptions } from '../../entities/models/modelQueries.js';
import { JUDGE_CLASS } from './judgeObjects.js';
import { judgeKeys, latestObjectsQueryOptions } from './judgeQueries.js';
import './judges.css';

/** Calls scored per request from a filter (the server takes at most 10,000 call × judge pairs). */
export const MAX_CALLS = 1000;

export interface ScoreWithMenuProps {
  projectId: string;
  req: CallsListReq;
  total: number | null;
  selectedIds: string[];
  /** Called once a scoring job is started: the page shows its Scores column, hidden by default. */
  onStarted?: () => void;
}

const FINAL = new Set(['succeeded', 'failed', 'cancelled']);

export function ScoreWithMenu({ projectId, req, total, selectedIds, onStarted }: ScoreWithMenuProps) {
  const queryClient = useQueryClient();
  const [scope, setScope] = useState<'selected' | 'filtered' | null>(null);
  const effective = (scope ?? 'selected') === 'selected' && selectedIds.length > 0 ? 'selected' : 'filtered';
  const [judgeRef, setJudgeRef] = useState('');
  const start = useMutation({
    mutationFn: async (ref: string) => {
      const ids =
        effective === 'selected'
          ? selectedIds
          : (
              await collect(
                api.callsStreamQuery({
                  project_id: req.project_id,
                  filter: req.filter,
                  query: req.query,
                  columns: ['id'],
                  sort_by: [{ field: 'started_at', direction: 'desc' }],
                  limit: MAX_CALLS,
                }),
              )
            ).map((c) => c.id);
      if (!ids.length) throw new Error('No calls match the filters.');
      return { ...(await api.callsScoreJob({ project_id: projectId, call_ids: ids, scorer_refs: [ref] })), count: ids.length };
    },
    onSuccess: () => onStarted?.(),
  });
  const jobId = start.data?.job_id ?? null;
  const job = useQuery({
    queryKey: judgeKeys.scoreJob(projectId, jobId),
    enabled: jobId !== null,
    queryFn: async ({ signal }) => (await api.jobRead({ project_id: projectId, job_id: jobId! }, { signal })).job,
    refetchInterval: (q) => (q.state.data && FINAL.has(q.state.data.status) ? false : 700),
  });
  const status = job.data?.status;
  const [refreshedFor, setRefreshedFor] = useState<string | null>(null);
  if (jobId && status === 'succeeded' && refreshedFor !== jobId) {
    // The scores are feedback on the calls: the list's pages (include_feedback) are stale now.
    setRefreshedFor(jobId);
    void queryClient.invalidateQueries({ queryKey: callKeys.project(projectId) });
  }
  const running = start.isPending || (jobId !== null && !FINAL.has(status ?? 'queued'));
  const count = effective === 'selected' ? selectedIds.length : Math.min(total ?? 0, MAX_CALLS);
  const result = job.data?.result as { scored?: number; skipped?: number; failed?: number } | null | undefined;

  return (
    <Popover label={running ? 'Scoring…' : 'Score with…'} className="button" align="end">
      {() => (
        <div className="menu score-with">
          <JudgeChoice projectId={projectId} judgeRef={judgeRef} onJudgeRef={setJudgeRef}>
            {(ref) => (
              <>
                <fieldset className="radio-group" disabled={running}>
                  <legend>Calls</legend>
                  <label>
                    <input
                      type="radio"
                      name="score-scope"
                      checked={effective === 'selected'}
                      disabled={selectedIds.length === 0}
                      onChange={() => setScope('selected')}
                    />
                    Selected ({formatInteger(selectedIds.length)})
                  </label>
                  <label>
                    <input type="radio" name="score-scope" checked={effective === 'filtered'} onChange={() => setScope('filtered')} />
                    {total !== null && total > MAX_CALLS
                      ? `The newest ${formatInteger(MAX_CALLS)} of ${formatInteger(total)} matching the filters`
                      : `All ${total !== null ? formatInteger(total) : ''} matching the filters`}
                  </label>
                </fieldset>
                <button type="button" className="button primary wide" disabled={running || count === 0} onClick={() => start.mutate(ref)}>
                  Score {formatInteger(count)} {count === 1 ? 'call' : 'calls'}
                </button>
              </>
            )}
          </JudgeChoice>
          {jobId && job.data && (
            <div className="job-progress" role="status" aria-label="Scoring progress">
              {!FINAL.has(job.data.status) && (
                <>
                  <progress max={Math.max(job.data.progress_total ?? 1, 1)} value={job.data.progress_done} />
                  <span className="small">
                    {formatInteger(job.data.progress_done)} of {formatInteger(job.data.progress_total ?? start.data?.count ?? 0)} scored
                  </span>
                </>
              )}
              {job.data.status === 'succeeded' && (
                <span className="small">
                  Done: {formatInteger(result?.scored ?? 0)} scored
                  {result?.skipped ? `, ${formatInteger(result.skipped)} skipped (not finished)` : ''}
                  {result?.failed ? `, ${formatInteger(result.failed)} failed` : ''}. The scores are in the Scores column.
                </span>
              )}
              {job.data.status === 'failed' && <span className="form-error">Scoring failed: {job.data.error}</span>}
              {job.data.status === 'cancelled' && <span className="small">Cancelled.</span>}
            </div>
          )}
          {start.error && (
            <p className="form-error" role="alert">
              {describeError(start.error).detail}
            </p>
          )}
        </div>
      )}
    </Popover>
  );
}

/** The judge picker, or what to set up first; `children` gets the chosen judge's ref. */
function JudgeChoice(props: {
  projectId: string;
  judgeRef: string;
  onJudgeRef: (ref: string) => void;
  children: (ref: string) => React.ReactNode;
}) {
  const { projectId } = props;
  const offered = useQuery(modelsQueryOptions(projectId));
  const judges = useQuery(latestObjectsQueryOptions(projectId, JUDGE_CLASS));
  if (offered.isPending || judges.isPending) return <Spinner showLabel label="Loading judges" />;
  if (offered.data && !offered.data.configured) {
    return (
      <p className="small">
        Scoring needs a model provider. {offered.data.help} <Link to={`/${projectId}/settings#providers`}>Add a model provider</Link>
      </p>
    );
  }
  if (!judges.data?.length) {
    return (
      <p className="small">
        This project has no LLM judges yet. <Link to={`/${projectId}/judges`}>Create one</Link>, then come back.
      </p>
    );
  }
  const ref = judges.data.some((j) => j.ref === props.judgeRef) ? props.judgeRef : judges.data[0]!.ref;
  return (
    <>
      <label className="field">
        <span>Judge</span>
        <select className="input" aria-label="Judge" value={ref} onChange={(e) => props.onJudgeRef(e.target.value)}>
          {judges.data.map((j) => (
            <option key={j.ref} value={j.ref}>
              {j.name} (v{j.version})
            </option>
          ))}
        </select>
      </label>
      {props.children(ref)}
    </>
  );
}
