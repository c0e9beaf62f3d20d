/**
 * Your default entity: where `weave.init("project")` (a project name without an entity) sends
 * traces. The SDKs learn it from `/graphql` (viewer.defaultEntity) at start-up, so a change
 * applies to the next `weave.init`. Members choose among their entities; admins, who may use
 * every entity, may type any.
 */
import { useSuspenseQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { whoamiQueryOptions } from '../auth/authQueries.js';
import { useSetDefaultEntity } from './settingsQueries.js';
import { FormStatus } from '../../components/ui/FormStatus.js';
import './settings.css';

/** The default entity card. */
export function DefaultEntitySection() {
  const { data: user } = useSuspenseQuery(whoamiQueryOptions());
  const save = useSetDefaultEntity();
  const [entity, setEntity] = useState(user.default_entity ?? user.entities[0] ?? '');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(entity.trim());
  };
  const canChoose = user.is_admin || user.entities.length > 0;

  return (
    <section className="card settings-section" id="default-entity" aria-labelledby="default-entity-title">
      <h2 id="default-entity-title">Default entity</h2>
      <p className="muted">
        Where a project name without an entity goes: <code>weave.init("my-project")</code> traces into{' '}
        <strong className="mono">{user.default_entity ?? '(none)'}/my-project</strong>. It takes effect at the next <code>weave.init</code>.
      </p>
      {!canChoose ? (
        <p className="muted">You belong to no entity yet; ask an admin to add you to one.</p>
      ) : (
        <form className="row settings-form" onSubmit={submit}>
          {user.is_admin ? (
            <>
              <input
                className="input"
                aria-label="Default entity"
                list="default-entity-choices"
                required
                value={entity}
                onChange={(e) => setEntity(e.target.value)}
              />
              <datalist id="default-entity-choices">
                {user.entities.map((name) => (
                  <option key={name} value={name} />
                ))}
              </datalist>
            </>
          ) : (
            <select className="input" aria-label="Default entity" value={entity} onChange={(e) => setEntity(e.target.value)}>
              {user.entities.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          )}
          <button
            type="submit"
            className="button primary"
            disabled={save.isPending || entity.trim() === '' || entity === user.default_entity}
          >
            Save default entity
          </button>
          {save.isSuccess && entity === user.default_entity && (
            <span role="status" className="muted">
              Saved
            </span>
          )}
        </form>
      )}
      <FormStatus error={save.error} />
    </section>
  );
}
