/**
 * Alerts (`/:entity/:project/alerts`, docs/alerts.md): the project's alert rules with their
 * state, an editor, "Send test", snooze for 1 h or 24 h, and the history of firings and
 * resolutions. Rules are evaluated by the server each minute; this page only reads and edits.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useParams } from 'react-router-dom';
import type { AlertRuleRead } from '../../../contract/alerts.js';
import { describeError } from '../../components/ui/ErrorState.js';
import { Spinner } from '../../components/ui/Spinner.js';
import { api } from '../../lib/api.js';
import { formatRelative } from '../../lib/format.js';
import { useCan } from '../auth/useCan.js';
import { alertKeys } from './alertQueries.js';
import './alerts.css';

type Metric = AlertRuleRead['metric'];
const METRICS: { value: Metric; label: string }[] = [
  { value: 'error_rate', label: 'Error rate (0–1)' },
  { value: 'latency_p95_ms', label: 'p95 latency (ms)' },
  { value: 'cost_per_day_usd', label: 'Cost per day (USD)' },
  { value: 'score_mean', label: 'Scorer mean' },
  { value: 'judge_kappa', label: "Judge's κ against reviewers" },
];

/** Metrics read from a scorer's feedback: they name the scorer and a field. */
const scored = (m: Metric) => m === 'score_mean' || m === 'judge_kappa';

interface RuleForm {
  name: string;
  metric: Metric;
  comparison: 'above' | 'below';
  threshold: string;
  window_minutes: string;
  op_name: string;
  scorer: string;
  field_path: string;
  format: 'json' | 'slack';
  webhook_url: string;
}

const emptyForm: RuleForm = {
  name: '',
  metric: 'error_rate',
  comparison: 'above',
  threshold: '0.1',
  window_minutes: '15',
  op_name: '',
  scorer: '',
  field_path: '',
  format: 'json',
  webhook_url: '',
};

function describeRule(r: AlertRuleRead): string {
  const what = METRICS.find((m) => m.value === r.metric)?.label ?? r.metric;
  return `${what}${r.scorer ? ` of ${r.scorer}` : ''}${r.op_name ? ` for ${r.op_name}` : ''} ${r.comparison} ${r.threshold} over ${r.window_minutes} min`;
}

function RuleEditor(props: { projectId: string; initial: RuleForm; ruleId: string | null; onClose: () => void }) {
  const { projectId, ruleId } = props;
  const queryClient = useQueryClient();
  const [form, setForm] = useState(props.initial);
  const set = (patch: Partial<RuleForm>) => setForm((f) => ({ ...f, ...patch }));
  const save = useMutation({
    mutationFn: async () => {
      const body = {
        project_id: projectId,
        name: form.name,
        metric: form.metric,
        comparison: form.comparison,
        threshold: Number(form.threshold),
        window_minutes: Number(form.window_minutes),
        op_name: form.op_name.trim() || null,
        scorer: scored(form.metric) ? form.scorer.trim() || null : null,
        field_path: scored(form.metric) ? form.field_path.trim() || null : null,
        format: form.format,
      };
      const url = form.webhook_url.trim();
      if (ruleId) await api.alertUpdate({ ...body, rule_id: ruleId, ...(url ? { webhook_url: url } : {}) });
      else await api.alertCreate({ ...body, enabled: true, webhook_url: url });
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: alertKeys.project(projectId) });
      props.onClose();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <form className="card alerts-editor" aria-label={ruleId ? 'Edit alert rule' : 'New alert rule'} onSubmit={submit}>
      <h2>{ruleId ? 'Edit alert rule' : 'New alert rule'}</h2>
      <div className="alerts-grid">
        <label className="field">
          <span>Name</span>
          <input className="input" value={form.name} onChange={(e) => set({ name: e.target.value })} required />
        </label>
        <label className="field">
          <span>Metric</span>
          <select className="input" value={form.metric} onChange={(e) => set({ metric: e.target.value as Metric })}>
            {METRICS.map((m) => (
              <option key={m.value} value={m.value}>
                {m.label}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Fires when</span>
          <select className="input" value={form.comparison} onChange={(e) => set({ comparison: e.target.value as 'above' | 'below' })}>
            <option value="above">above</option>
            <option value="below">below</option>
          </select>
        </label>
        <label className="field">
          <span>Threshold</span>
          <input className="input" type="number" step="any" value={form.threshold} onChange={(e) => set({ threshold: e.target.value })} />
        </label>
        <label className="field">
          <span>Window (minutes)</span>
          <input
            className="input"
            type="number"
            min={1}
            value={form.window_minutes}
            onChange={(e) => set({ window_minutes: e.target.value })}
          />
        </label>
        <label className="field">
          <span>Op (optional)</span>
          <input className="input mono" value={form.op_name} onChange={(e) => set({ op_name: e.target.value })} />
        </label>
        {scored(form.metric) && (
          <>
            <label className="field">
              <span>Scorer</span>
              <input className="input mono" value={form.scorer} onChange={(e) => set({ scorer: e.target.value })} />
            </label>
            <label className="field">
              <span>Field path</span>
              <input
                className="input mono"
                placeholder={form.metric === 'score_mean' ? 'output' : 'the whole output'}
                value={form.field_path}
                onChange={(e) => set({ field_path: e.target.value })}
              />
            </label>
          </>
        )}
        <label className="field">
          <span>Payload</span>
          <select className="input" value={form.format} onChange={(e) => set({ format: e.target.value as 'json' | 'slack' })}>
            <option value="json">Generic JSON</option>
            <option value="slack">Slack-compatible</option>
          </select>
        </label>
        <label className="field alerts-wide">
          <span>Webhook URL{ruleId ? ' (leave empty to keep the stored one)' : ''}</span>
          <input
            className="input mono"
            type="url"
            value={form.webhook_url}
            onChange={(e) => set({ webhook_url: e.target.value })}
            required={!ruleId}
          />
        </label>
      </div>
      {save.error && (
        <p className="form-error" role="alert">
          {describeError(save.error).detail}
        </p>
      )}
      <div className="row">
        <button type="submit" className="button primary" disabled={save.isPending}>
          Save rule
        </button>
        <button type="button" className="button" onClick={props.onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function AlertsPage() {
  const { entity = '', project = '' } = useParams();
  const projectId = `${entity}/${project}`;
  const queryClient = useQueryClient();
  const can = useCan(projectId)('alertCreate');
  const rules = useQuery({
    queryKey: alertKeys.rules(projectId),
    refetchInterval: 15_000,
    queryFn: ({ signal }) => api.alertsList({ project_id: projectId }, { signal }),
  });
  const events = useQuery({
    queryKey: alertKeys.events(projectId),
    refetchInterval: 15_000,
    queryFn: ({ signal }) => api.alertEvents({ project_id: projectId }, { signal }),
  });
  const [editing, setEditing] = useState<{ form: RuleForm; ruleId: string | null } | null>(null);
  const [tested, setTested] = useState<Record<string, string>>({});
  const refresh = () => queryClient.invalidateQueries({ queryKey: alertKeys.project(projectId) });
  const change = useMutation({
    mutationFn: async (req: { rule_id: string; snooze_minutes?: number; enabled?: boolean; remove?: boolean }) => {
      if (req.remove) {
        await api.alertDelete({ project_id: projectId, rule_id: req.rule_id });
        return;
      }
      await api.alertUpdate({
        project_id: projectId,
        rule_id: req.rule_id,
        ...(req.snooze_minutes !== undefined ? { snooze_minutes: req.snooze_minutes } : {}),
        ...(req.enabled !== undefined ? { enabled: req.enabled } : {}),
      });
    },
    onSuccess: refresh,
  });
  const test = useMutation({
    mutationFn: (ruleId: string) => api.alertTest({ project_id: projectId, rule_id: ruleId }),
    onSuccess: (res, ruleId) =>
      setTested((t) => ({ ...t, [ruleId]: res.ok ? `Test delivered (HTTP ${res.status})` : `Test failed: ${res.error}` })),
  });
  const names = new Map((rules.data?.rules ?? []).map((r) => [r.id, r.name]));
  const now = Date.now();

  return (
    <div className="page">
      <header className="page-header">
        <h1>Alerts</h1>
        <div className="spacer" />
        <button
          type="button"
          className="button primary"
          disabled={!can.allowed}
          title={can.reason ?? undefined}
          onClick={() => setEditing({ form: emptyForm, ruleId: null })}
        >
          New alert rule
        </button>
      </header>
      {editing && (
        <RuleEditor
          key={editing.ruleId ?? 'new'}
          projectId={projectId}
          initial={editing.form}
          ruleId={editing.ruleId}
          onClose={() => setEditing(null)}
        />
      )}
      <section className="card" aria-label="Alert rules">
        <p className="muted small">
          Each rule is evaluated every minute over its window; a webhook is called when it starts firing and when it resolves.
        </p>
        {!rules.data ? (
          <Spinner showLabel label="Loading alert rules" />
        ) : rules.data.rules.length === 0 ? (
          <p className="muted">No alert rules yet.</p>
        ) : (
          <table className="simple-table" aria-label="Alert rule list">
            <thead>
              <tr>
                <th>Name</th>
                <th>Condition</th>
                <th>State</th>
                <th>Webhook</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {rules.data.rules.map((r) => {
                const snoozed = r.snoozed_until !== null && Date.parse(r.snoozed_until) > now;
                return (
                  <tr key={r.id}>
                    <td>{r.name}</td>
                    <td className="small">{describeRule(r)}</td>
                    <td>
                      <span className={`alerts-state ${r.state === 'firing' ? 'alerts-firing' : ''}`}>
                        {!r.enabled ? 'Disabled' : r.state === 'firing' ? 'Firing' : 'OK'}
                      </span>
                      {snoozed && <span className="muted small"> · snoozed until {new Date(r.snoozed_until!).toLocaleString()}</span>}
                      {tested[r.id] && <div className="small">{tested[r.id]}</div>}
                    </td>
                    <td className="mono small">
                      {r.webhook_mask} ({r.format})
                    </td>
                    <td className="row">
                      {can.allowed && (
                        <>
                          <button
                            type="button"
                            className="button small"
                            aria-label={`Send test for ${r.name}`}
                            onClick={() => test.mutate(r.id)}
                          >
                            Send test
                          </button>
                          {snoozed ? (
                            <button
                              type="button"
                              className="button small"
                              onClick={() => change.mutate({ rule_id: r.id, snooze_minutes: 0 })}
                            >
                              Unsnooze
                            </button>
                          ) : (
                            <>
                              <button
                                type="button"
                                className="button small"
                                onClick={() => change.mutate({ rule_id: r.id, snooze_minutes: 60 })}
                              >
                                Snooze 1 h
                              </button>
                              <button
                                type="button"
                                className="button small"
                                onClick={() => change.mutate({ rule_id: r.id, snooze_minutes: 1440 })}
                              >
                                Snooze 24 h
                              </button>
                            </>
                          )}
                          <button
                            type="button"
                            className="button small"
                            onClick={() => change.mutate({ rule_id: r.id, enabled: !r.enabled })}
                          >
                            {r.enabled ? 'Disable' : 'Enable'}
                          </button>
                          <button
                            type="button"
                            className="button small"
                            aria-label={`Edit ${r.name}`}
                            onClick={() =>
                              setEditing({
                                ruleId: r.id,
                                form: {
                                  name: r.name,
                                  metric: r.metric,
                                  comparison: r.comparison,
                                  threshold: String(r.threshold),
                                  window_minutes: String(r.window_minutes),
                                  op_name: r.op_name ?? '',
                                  scorer: r.scorer ?? '',
                                  field_path: r.field_path ?? '',
                                  format: r.format,
                                  webhook_url: '',
                                },
                              })
                            }
                          >
                            Edit
                          </button>
                          <button
                            type="button"
                            className="button small danger"
                            aria-label={`Delete ${r.name}`}
                            onClick={() => change.mutate({ rule_id: r.id, remove: true })}
                          >
                            Delete
                          </button>
                        </>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
        {(change.error ?? test.error) && (
          <p className="form-error" role="alert">
            {describeError(change.error ?? test.error).detail}
          </p>
        )}
      </section>
      <section className="card" aria-label="Alert history">
        <h2>History</h2>
        {!events.data ? (
          <Spinner showLabel label="Loading alert history" />
        ) : events.data.events.length === 0 ? (
          <p className="muted">No firings yet.</p>
        ) : (
          <table className="simple-table" aria-label="Alert events">
            <thead>
              <tr>
                <th>When</th>
                <th>Rule</th>
                <th>State</th>
                <th className="num">Value</th>
                <th className="num">Threshold</th>
                <th>Delivery</th>
              </tr>
            </thead>
            <tbody>
              {events.data.events.map((e) => (
                <tr key={e.id}>
                  <td className="muted">{formatRelative(e.at)}</td>
                  <td>{names.get(e.rule_id) ?? e.rule_id}</td>
                  <td>
                    <span className={`alerts-state ${e.state === 'firing' ? 'alerts-firing' : ''}`}>{e.state}</span>
                  </td>
                  <td className="num">{e.value === null ? '–' : Number(e.value.toPrecision(4))}</td>
                  <td className="num">{e.threshold}</td>
                  <td title={e.detail ?? undefined}>{e.delivery}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}
