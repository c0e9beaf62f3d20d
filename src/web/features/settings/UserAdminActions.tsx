/**
 * An admin's actions on one user: set a new password (all their sessions end) and end all their
 * sessions (their browsers are signed out; API keys keep working).
 */
import { useState, type FormEvent } from 'react';
import { ConfirmButton } from '../../components/ui/ConfirmButton.js';
import { describeError } from '../../components/ui/ErrorState.js';
import { useSessionMutations } from './sessionQueries.js';
import './settings.css';

/** The actions cell of a user row. */
export function UserAdminActions({ username }: { username: string }) {
  const { revokeUser, resetPassword } = useSessionMutations();
  const [editing, setEditing] = useState(false);
  const [password, setPassword] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const error = revokeUser.error ?? resetPassword.error;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    resetPassword.mutate(
      { username, new_password: password },
      {
        onSuccess: ({ num_sessions_ended }) => {
          setEditing(false);
          setPassword('');
          setDone(`Password set; ${num_sessions_ended} session${num_sessions_ended === 1 ? '' : 's'} ended.`);
        },
      },
    );
  };

  return (
    <div className="user-actions">
      {editing ? (
        <form className="row" onSubmit={submit} aria-label={`Set a password for ${username}`}>
          <input
            className="input"
            type="password"
            autoComplete="new-password"
            aria-label={`New password for ${username}`}
            minLength={8}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <button type="submit" className="button small primary" disabled={password.length < 8 || resetPassword.isPending}>
            Save
          </button>
          <button type="button" className="button small ghost" onClick={() => setEditing(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <div className="row">
          <button type="button" className="button small ghost" aria-label={`Set password for ${username}`} onClick={() => setEditing(true)}>
            Set password
          </button>
          <ConfirmButton
            label="End sessions"
            ariaLabel={`End sessions of ${username}`}
            question={`Sign ${username} out of every browser?`}
            confirmLabel="End sessions"
            disabled={revokeUser.isPending}
            onConfirm={() =>
              revokeUser.mutate(username, {
                onSuccess: ({ num_ended }) => setDone(`${num_ended} session${num_ended === 1 ? '' : 's'} ended.`),
              })
            }
          />
        </div>
      )}
      {done && (
        <span className="muted small" role="status">
          {done}
        </span>
      )}
      {error && (
        <span className="form-error small" role="alert">
          {describeError(error).detail}
        </span>
      )}
    </div>
  );
}
