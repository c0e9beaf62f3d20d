/** Users (admins only): everyone with their entities, setting a password or ending a user's sessions, and a form to create a user. */
import { useSuspenseQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { formatDateTime, formatRelative } from '../../lib/format.js';
import { useCreateUser, usersQueryOptions } from './settingsQueries.js';
import { UserAdminActions } from './UserAdminActions.js';
import { FormStatus } from '../../components/ui/FormStatus.js';

const EMPTY = { username: '', password: '', entities: '', isAdmin: false };

/** The users card. */
export function UsersSection() {
  const { data: users } = useSuspenseQuery(usersQueryOptions());
  const create = useCreateUser();
  const [draft, setDraft] = useState(EMPTY);
  const [done, setDone] = useState<string | null>(null);
  const entities = draft.entities
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setDone(null);
    create.mutate(
      { username: draft.username.trim(), password: draft.password, entities, is_admin: draft.isAdmin },
      {
        onSuccess: ({ user }) => {
          setDone(`Created ${user.username}. They can log in with that password now.`);
          setDraft(EMPTY);
        },
      },
    );
  };

  return (
    <section className="card settings-section" id="users" aria-labelledby="users-title">
      <h2 id="users-title">Users</h2>
      <p className="muted">A user reads and writes the projects of their entities; admins reach every project and manage users.</p>
      <table className="simple-table" aria-label="Users">
        <thead>
          <tr>
            <th>User</th>
            <th>Entities</th>
            <th>Signs in with</th>
            <th>Created</th>
            <th aria-label="Actions" />
          </tr>
        </thead>
        <tbody>
          {users.map((u) => (
            <tr key={u.username}>
              <td>
                {u.username}
                {u.is_admin && <span className="tag">admin</span>}
              </td>
              <td>{u.entities.length ? u.entities.join(', ') : <span className="muted">{u.is_admin ? 'all (admin)' : 'none'}</span>}</td>
              <td>{u.has_password ? 'password or API key' : 'API key only'}</td>
              <td title={formatDateTime(u.created_at)}>{formatRelative(u.created_at)}</td>
              <td className="right">
                <UserAdminActions username={u.username} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form className="settings-grid-form" onSubmit={submit} aria-label="Create a user">
        <h3>Create a user</h3>
        <label className="field">
          <span>Username</span>
          <input
            className="input"
            autoComplete="off"
            value={draft.username}
            onChange={(e) => setDraft({ ...draft, username: e.target.value })}
          />
        </label>
        <label className="field">
          <span>Password</span>
          <input
            className="input"
            type="password"
            autoComplete="new-password"
            minLength={8}
            value={draft.password}
            onChange={(e) => setDraft({ ...draft, password: e.target.value })}
          />
        </label>
        <label className="field">
          <span>Entities</span>
          <input
            className="input"
            placeholder="acme, research"
            value={draft.entities}
            onChange={(e) => setDraft({ ...draft, entities: e.target.value })}
          />
        </label>
        <label className="toggle">
          <input type="checkbox" checked={draft.isAdmin} onChange={(e) => setDraft({ ...draft, isAdmin: e.target.checked })} />
          Admin
        </label>
        <button
          type="submit"
          className="button primary"
          disabled={create.isPending || !draft.username.trim() || draft.password.length < 8 || (!draft.isAdmin && entities.length === 0)}
        >
          Create user
        </button>
      </form>
      <p className="muted small">At least 8 characters of password; at least one entity unless the user is an admin.</p>
      <FormStatus error={create.error} done={done} />
    </section>
  );
}
