/**
 * Monitors (`/:entity/:project/monitors`): judges applied automatically to a sampled share of
 * the calls that end, per op. Each monitor is a versioned `Monitor` object; pausing or resuming
 * saves a new version. Below: the scores monitors stored lately (feedback whose `trigger_ref` is
 * a version of a monitor) and scoring jobs that failed, with the reason (a judge whose provider
 * is gone, say). With no provider configured the page says what to configure.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { describeError } from '../../components/ui/ErrorState.js';
import { ListTable } from '../../components/table/ListTable.js';
import { Spinner } from '../../components/ui/Spinner.js';
import { api } from '../../lib/api.js';
import { formatRelative } from '../../lib/format.js';
import { JUDGE_CLASS, refObjectName, scoreText } from '../judges/judgeObjects.js';
import { judgeKeys, latestObjectsQueryOptions, type LlmObject } from '../judges/judgeQueries.js';
import { modelsQueryOptions } from '../../entities/models/modelQueries.js';
import { MonitorEditor } from './MonitorEditor.js';
import { monitorKeys } from './monitorQueries.js';
import { emptyMonitorForm, fromMonitorValue, toMonitorValue, type MonitorForm } from './monitorObjects.js';
import '../judges/judges.css';
import { RUNNABLE_PREFIX } from '../../entities/feedback/feedbackModel.js';
import { useCan } from '../auth/useCan.js';

const MONITOR_CLASS = 'Monitor';

/** Scores monitors stored lately, newest first, and scoring jobs of monitors that failed. */
function activityQueryOptions(projectId: string) {
  return {
    queryKey: monitorKeys.activity(projectId),
    refetchInterval: 5000,
    queryFn: async ({ signal }: { signal: AbortSignal }) => {
      const { objs } = await api.objsQuery(
        { project_id: projectId, filter: { leaf_object_classes: [MONITOR_CLASS] }, metadata_only: true },
        { signal },
      );
      const refs = objs.map((o) => `weave:///${projectId}/object/${o.object_id}:${o.digest}`);
      if (!refs.length) return { scores: [], failures: [] };
      const { result } = await api.feedbackQuery(
        {
          project_id: projectId,
          query: { $expr: { $in: [{ $getField: 'trigger_ref' }, refs.map((r) => ({ $literal: r }))] } },
          sort_by: [{ field: 'created_at', direction: 'desc' }],
          limit: 50,
        },
        { signal },
      );
      const { jobs } = await api.jobsList({ project_id: projectId, kind: 'calls_score', limit: 100 }, { signal });
      const failures = jobs.filter((j) => j.status === 'failed' && typeof j.payload.source === 'string' && refs.includes(j.payload.source));
      return { scores: result, failures: failures.slice(0, 5) };
    },
  };
}

export function MonitorsPage() {
  const { entity = '', project = '' } = useParams();
  const projectId = `${entity}/${project}`;
  const queryClient = useQueryClient();
  const monitors = useQuery(latestObjectsQueryOptions(projectId, MONITOR_CLASS));
  const judges = useQuery(latestObjectsQueryOptions(projectId, JUDGE_CLASS));
  const offered = useQuery(modelsQueryOptions(projectId));
  const activity = useQuery(activityQueryOptions(projectId));
  const [editing, setEditing] = useState<{ form: MonitorForm; existing: boolean } | null>(null);
  // Monitors are objects: saving, pausing and resuming one write a new version.
  const save = useCan(projectId)('objCreate');
  const toggle = useMutation({
    mutationFn: async (m: LlmObject) => {
      const form = fromMonitorValue(m.name, m.val);
      await api.objCreate({
        obj: { project_id: projectId, object_id: m.name, val: toMonitorValue(projectId, { ...form, active: !form.active }) },
      });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: judgeKeys.project(projectId) }),
  });

  return (
    <div className="page monitors-page">
      <header className="page-header">
        <h1>Monitors</h1>
        <div className="spacer" />
        <button
          type="button"
          className="button primary"
          // Until the judges are in, the new monitor could not start with the first one picked.
          disabled={!save.allowed || judges.isPending}
          title={save.reason ?? undefined}
          onClick={() =>
            setEditing({ form: { ...emptyMonitorForm(), scorers: judges.data?.[0] ? [judges.data[0].ref] : [] }, existing: false })
          }
        >
          New monitor
        </button>
      </header>
      {offered.data && !offered.data.configured && (
        <div className="notice" role="status">
          <span>
            Monitors score with LLM judges, which need a model provider. {offered.data.help}{' '}
            <Link to={`/${projectId}/settings#providers`}>Add a model provider</Link>
          </span>
        </div>
      )}
      <section className="card" aria-label="Monitors">
        <p className="muted small">
          A monitor scores a share of the calls that end from now on with its <Link to={`/${projectId}/judges`}>judges</Link>, in the
          background. Scores show in the Scores column of the <Link to={`/${projectId}/calls`}>Calls</Link> page.
        </p>
        <ListTable
          items={monitors.data}
          pending={monitors.isPending}
          noun="monitors"
          label="Monitor list"
          head={
            <>
              <th>Name</th>
              <th>Judges</th>
              <th>Ops</th>
              <th className="num">Sampling</th>
              <th>Status</th>
              <th>Version</th>
              <th />
            </>
          }
          row={(m) => {
            const form = fromMonitorValue(m.name, m.val);
            return (
              <tr key={m.name}>
                <td className="mono">{m.name}</td>
                <td>{form.scorers.map(refObjectName).join(', ')}</td>
                <td className="mono">{form.ops.length ? form.ops.join(', ') : 'every op'}</td>
                <td className="num">{form.samplingPercent}%</td>
                <td>
                  <span className={`status ${form.active ? 'status-success' : ''}`}>
                    <span className="status-dot" aria-hidden="true" />
                    {form.active ? 'Active' : 'Paused'}
                  </span>
                </td>
                <td>
                  <Link to={`/${projectId}/objects/${encodeURIComponent(m.name)}`} aria-label={`Versions of ${m.name}`}>
                    v{m.version}
                  </Link>
                </td>
                <td className="row">
                  {save.allowed && (
                    <>
                      <button
                        type="button"
                        className="button small"
                        aria-label={`${form.active ? 'Pause' : 'Resume'} ${m.name}`}
                        disabled={toggle.isPending}
                        onClick={() => toggle.mutate(m)}
                      >
                        {form.active ? 'Pause' : 'Resume'}
                      </button>
                      <button
                        type="button"
                        className="button small"
                        aria-label={`Edit monitor ${m.name}`}
                        onClick={() => setEditing({ form, existing: true })}
                      >
                        Edit
                      </button>
                    </>
                  )}
                </td>
              </tr>
            );
          }}
        />
        {toggle.error && (
          <p className="form-error" role="alert">
            {describeError(toggle.error).detail}
          </p>
        )}
      </section>

      <section className="card" aria-label="Recent monitor scores">
        <h2>Recent scores</h2>
        {activity.data?.failures.map((j) => (
          <p key={j.id} className="form-error" role="alert">
            Scoring for {refObjectName(String(j.payload.source))} failed {formatRelative(j.created_at)}: {j.error}
          </p>
        ))}
        {!activity.data ? (
          <Spinner showLabel label="Loading scores" />
        ) : activity.data.scores.length === 0 ? (
          <p className="muted">No scores yet. Calls that end while a monitor is active are scored within seconds.</p>
        ) : (
          <table className="simple-table" aria-label="Monitor scores">
            <thead>
              <tr>
                <th>When</th>
                <th>Monitor</th>
                <th>Judge</th>
                <th>Call</th>
                <th>Score</th>
              </tr>
            </thead>
            <tbody>
              {activity.data.scores.map((f) => {
                const callId =
                  String(f.weave_ref ?? '')
                    .split('/')
                    .pop() ?? '';
                return (
                  <tr key={String(f.id)}>
                    <td className="muted">{formatRelative(String(f.created_at))}</td>
                    <td className="mono">{refObjectName(String(f.trigger_ref ?? ''))}</td>
                    <td className="mono">{String(f.feedback_type ?? '').replace(RUNNABLE_PREFIX, '')}</td>
                    <td>
                      <Link className="mono" to={`/${projectId}/calls/${callId}`}>
                        {callId.slice(-8)}
                      </Link>
                    </td>
                    <td>{scoreText((f.payload as { output?: unknown } | null)?.output)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </section>

      {editing && (
        <MonitorEditor
          projectId={projectId}
          initial={editing.form}
          existing={editing.existing}
          judges={judges.data ?? []}
          onClose={() => setEditing(null)}
        />
      )}
    </div>
  );
}
