/**
 * Users: each with their role per entity and per-project overrides (changeable and removable in
 * place), a form to give a user a role in an entity or one project, and a form to create a
 * user. Global admins see everyone and also set passwords and end sessions; entity admins see
 * the users of their entities, only those roles (what GET /weft/users answers them), and may
 * change roles only there (docs/security/roles.md).
 */
import { useSuspenseQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { User } from '../../../contract/accounts.js';
import { ROLES, type Role } from '../../../contract/roles.js';
import type { WhoamiRes } from '../../../contract/weft.js';
import { ConfirmButton } from '../../components/ui/ConfirmButton.js';
import { FormStatus } from '../../components/ui/FormStatus.js';
import { formatDateTime, formatRelative } from '../../lib/format.js';
import { administeredEntities, permission } from '../../lib/permissions.js';
import { useCreateUser, useSetRole, usersQueryOptions } from './settingsQueries.js';
import { UserAdminActions } from './UserAdminActions.js';
import './settings.css';

const EMPTY = { username: '', password: '', entities: '', role: 'member' as Role, isAdmin: false };

/** The users card. */
export function UsersSection({ me }: { me: WhoamiRes }) {
  const { data: users } = useSuspenseQuery(usersQueryOptions());
  const managed = administeredEntities(me);
  const global = managed === 'all';
  const setRole = useSetRole(me.username);
  const [done, setDone] = useState<string | null>(null);
  const change = (username: string, scope: string, role: Role | null) => {
    setDone(null);
    setRole.mutate(
      { username, scope, role },
      { onSuccess: () => setDone(role ? `${username} is now ${role} in ${scope}.` : `Removed ${username}'s role in ${scope}.`) },
    );
  };

  return (
    <section className="card settings-section" id="users" aria-labelledby="users-title">
      <h2 id="users-title">Users</h2>
      <p className="muted">
        Each membership has a role: <strong>viewer</strong> reads, <strong>annotator</strong> also answers queues and writes feedback,{' '}
        <strong>member</strong> also writes and deletes data and runs jobs, <strong>admin</strong> also manages the entity&apos;s users. A
        project override replaces the entity role in that project.{' '}
        {global ? 'Admins reach every project.' : `You manage the users of ${managed.join(', ')}.`}
      </p>
      <table className="simple-table" aria-label="Users">
        <thead>
          <tr>
            <th>User</th>
            <th>Roles</th>
            <th>Signs in with</th>
            <th>Created</th>
            {global && <th aria-label="Actions" />}
          </tr>
        </thead>
        <tbody>
          {users.map((u) => (
            <tr key={u.username}>
              <td>
                {u.username}
                {u.is_admin && <span className="tag">admin</span>}
              </td>
              <td>
                <RoleList user={u} me={me} pending={setRole.isPending} onChange={change} />
              </td>
              <td>{u.has_password ? 'password or API key' : 'API key only'}</td>
              <td title={formatDateTime(u.created_at)}>{formatRelative(u.created_at)}</td>
              {global && (
                <td className="right">
                  <UserAdminActions username={u.username} />
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      <FormStatus error={setRole.error} done={done} />
      <GrantForm users={users} me={me} pending={setRole.isPending} onGrant={change} />
      <CreateUserForm me={me} />
    </section>
  );
}

/** A user's memberships and overrides, each with a role select and Remove where the caller may change it. */
function RoleList({
  user,
  me,
  pending,
  onChange,
}: {
  user: User;
  me: WhoamiRes;
  pending: boolean;
  onChange: (username: string, scope: string, role: Role | null) => void;
}) {
  const scopes = [
    ...Object.entries(user.roles).map(([scope, role]) => ({ scope, role, override: false })),
    ...Object.entries(user.project_roles).map(([scope, role]) => ({ scope, role, override: true })),
  ].sort((a, b) => a.scope.localeCompare(b.scope));
  if (scopes.length === 0) return <span className="muted">{user.is_admin ? 'all (admin)' : 'none'}</span>;
  return (
    <ul className="role-list" aria-label={`Roles of ${user.username}`}>
      {scopes.map(({ scope, role, override }) => {
        const editable = permission(me, 'userRoleSet', scope).allowed;
        return (
          <li key={scope}>
            <span className="mono">{scope}</span>
            {override && <span className="muted small">override</span>}
            {editable ? (
              <>
                <select
                  className="input"
                  aria-label={`Role of ${user.username} in ${scope}`}
                  value={role}
                  disabled={pending}
                  onChange={(e) => onChange(user.username, scope, e.target.value as Role)}
                >
                  {ROLES.map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
                </select>
                <ConfirmButton
                  label="Remove"
                  ariaLabel={`Remove ${user.username} from ${scope}`}
                  question={override ? `Remove the override in ${scope}?` : `Remove ${user.username} from ${scope}?`}
                  confirmLabel="Remove"
                  disabled={pending}
                  onConfirm={() => onChange(user.username, scope, null)}
                />
              </>
            ) : (
              <span>{role}</span>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** Give a user (existing, by name) a role in an entity, or override it in one project. */
function GrantForm({
  users,
  me,
  pending,
  onGrant,
}: {
  users: User[];
  me: WhoamiRes;
  pending: boolean;
  onGrant: (username: string, scope: string, role: Role | null) => void;
}) {
  const managed = administeredEntities(me);
  const [draft, setDraft] = useState({ username: '', scope: managed === 'all' ? '' : (managed[0] ?? ''), role: 'member' as Role });
  const scope = draft.scope.trim();
  const allowed = scope !== '' && /^[^/]+(\/[^/]+)?$/.test(scope) && permission(me, 'userRoleSet', scope).allowed;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onGrant(draft.username.trim(), scope, draft.role);
  };
  return (
    <form className="settings-grid-form" onSubmit={submit} aria-label="Give a user a role">
      <h3>Give a role</h3>
      <label className="field">
        <span>Username</span>
        <input
          className="input"
          autoComplete="off"
          list="role-usernames"
          value={draft.username}
          onChange={(e) => setDraft({ ...draft, username: e.target.value })}
        />
        <datalist id="role-usernames">
          {users.map((u) => (
            <option key={u.username} value={u.username} />
          ))}
        </datalist>
      </label>
      <label className="field">
        <span>Entity or entity/project</span>
        <input
          className="input"
          placeholder={managed === 'all' ? 'acme or acme/support' : `${managed[0]} or ${managed[0]}/project`}
          value={draft.scope}
          aria-invalid={scope !== '' && !allowed}
          onChange={(e) => setDraft({ ...draft, scope: e.target.value })}
        />
      </label>
      <RoleSelect label="Role" value={draft.role} onChange={(role) => setDraft({ ...draft, role })} />
      <button type="submit" className="button primary" disabled={pending || !draft.username.trim() || !allowed}>
        Set role
      </button>
      <p className="muted small price-form-hint">
        An entity adds the user to it (or changes their role there); <code>entity/project</code> overrides the role in that project only.
        {managed !== 'all' && ` You may set roles in ${managed.join(', ')}.`}
      </p>
    </form>
  );
}

/** Create a user with a password, in entities with a role (entity admins: in their entities, never an admin). */
function CreateUserForm({ me }: { me: WhoamiRes }) {
  const create = useCreateUser();
  const managed = administeredEntities(me);
  const global = managed === 'all';
  const [draft, setDraft] = useState({ ...EMPTY, entities: global ? '' : (managed[0] ?? '') });
  const [done, setDone] = useState<string | null>(null);
  const entities = draft.entities
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const outside = entities.filter((e) => !permission(me, 'userRoleSet', e).allowed);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setDone(null);
    create.mutate(
      { username: draft.username.trim(), password: draft.password, entities, role: draft.role, is_admin: global && draft.isAdmin },
      {
        onSuccess: ({ user }) => {
          setDone(`Created ${user.username}. They can log in with that password now.`);
          setDraft({ ...EMPTY, entities: draft.entities });
        },
      },
    );
  };
  return (
    <>
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
            aria-invalid={outside.length > 0}
            value={draft.entities}
            onChange={(e) => setDraft({ ...draft, entities: e.target.value })}
          />
        </label>
        <RoleSelect label="Role in them" value={draft.role} onChange={(role) => setDraft({ ...draft, role })} />
        {global && (
          <label className="toggle">
            <input type="checkbox" checked={draft.isAdmin} onChange={(e) => setDraft({ ...draft, isAdmin: e.target.checked })} />
            Admin
          </label>
        )}
        <button
          type="submit"
          className="button primary"
          disabled={
            create.isPending ||
            !draft.username.trim() ||
            draft.password.length < 8 ||
            outside.length > 0 ||
            (!(global && draft.isAdmin) && entities.length === 0)
          }
        >
          Create user
        </button>
      </form>
      <p className="muted small">
        At least 8 characters of password; at least one entity unless the user is an admin.
        {outside.length > 0 && ` You cannot add users to ${outside.join(', ')}.`}
      </p>
      <FormStatus error={create.error} done={done} />
    </>
  );
}

function RoleSelect({ label, value, onChange }: { label: string; value: Role; onChange: (role: Role) => void }) {
  return (
    <label className="field">
      <span>{label}</span>
      <select className="input" value={value} onChange={(e) => onChange(e.target.value as Role)}>
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
    </label>
  );
}
