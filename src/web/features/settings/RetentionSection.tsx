/**
 * Retention: how many days this project's calls are kept, its own rule and its entity's default
 * (docs/operations/retention.md). Admins edit both; everyone else sees them read-only.
 */
import { useSuspenseQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { FormStatus } from '../../components/ui/FormStatus.js';
import { retentionQueryOptions, useSetRetention } from './settingsQueries.js';
import './settings.css';

const describe = (days: number | null) => (days === null ? 'forever' : `${days} day${days === 1 ? '' : 's'}`);

function RuleForm({
  label,
  days,
  onSave,
  pending,
}: {
  label: string;
  days: number | null;
  onSave: (days: number | null) => void;
  pending: boolean;
}) {
  const [value, setValue] = useState(days === null ? '' : String(days));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSave(value.trim() === '' ? null : Number(value));
  };
  return (
    <form className="row settings-form" onSubmit={submit}>
      <label>
        {label}{' '}
        <input
          className="input"
          type="number"
          min={1}
          max={36500}
          step={1}
          placeholder="keep forever"
          aria-label={`${label}, in days (empty: none)`}
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />{' '}
        days
      </label>
      <button type="submit" className="button primary" disabled={pending || value === (days === null ? '' : String(days))}>
        Save
      </button>
    </form>
  );
}

/** The retention card of a project's settings. */
export function RetentionSection({ projectId, canEdit }: { projectId: string; canEdit: boolean }) {
  const { data: rule } = useSuspenseQuery(retentionQueryOptions(projectId));
  const save = useSetRetention();
  return (
    <section className="card settings-section" id="retention" aria-labelledby="retention-title">
      <h2 id="retention-title">Retention</h2>
      <p className="muted">
        Calls of <strong className="mono">{projectId}</strong> are kept <strong>{describe(rule.days)}</strong> from their start
        {rule.source === 'project' && ' (this project’s rule)'}
        {rule.source === 'entity' && ` (the default of ${rule.entity})`}. Older calls are deleted with their feedback within a minute;
        objects, datasets, evaluations and annotation answers are kept. A new or shorter rule also applies to the calls already stored.
      </p>
      {canEdit ? (
        <>
          <RuleForm
            key={`p-${rule.project_days}`}
            label="This project"
            days={rule.project_days}
            pending={save.isPending}
            onSave={(days) => save.mutate({ project_id: projectId, days })}
          />
          <RuleForm
            key={`e-${rule.entity_days}`}
            label={`Default for ${rule.entity}`}
            days={rule.entity_days}
            pending={save.isPending}
            onSave={(days) => save.mutate({ entity: rule.entity, days })}
          />
          <FormStatus error={save.error} />
        </>
      ) : (
        <dl className="settings-facts">
          <dt>This project</dt>
          <dd>{rule.project_days === null ? 'no rule' : describe(rule.project_days)}</dd>
          <dt>Default for {rule.entity}</dt>
          <dd>{rule.entity_days === null ? 'no rule' : describe(rule.entity_days)}</dd>
          <dd className="muted">Only an admin of {rule.entity} can change these.</dd>
        </dl>
      )}
    </section>
  );
}
