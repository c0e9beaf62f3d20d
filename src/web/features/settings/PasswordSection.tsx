/** Change your password: the current one is checked; your other sessions end, this one stays. */
import { useState, type FormEvent } from 'react';
import { useSessionMutations } from './sessionQueries.js';
import { FormStatus } from '../../components/ui/FormStatus.js';
import './settings.css';

const EMPTY = { current: '', next: '', repeat: '' };

/** The password card. */
export function PasswordSection() {
  const { changePassword } = useSessionMutations();
  const [draft, setDraft] = useState(EMPTY);
  const [done, setDone] = useState<string | null>(null);
  const mismatch = draft.repeat !== '' && draft.repeat !== draft.next;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setDone(null);
    changePassword.mutate(
      { current_password: draft.current, new_password: draft.next },
      {
        onSuccess: ({ num_sessions_ended }) => {
          setDraft(EMPTY);
          setDone(
            `Password changed.${num_sessions_ended ? ` ${num_sessions_ended} other session${num_sessions_ended === 1 ? '' : 's'} ended.` : ''}`,
          );
        },
      },
    );
  };
  return (
    <section className="card settings-section" id="password" aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      <form className="settings-grid-form" onSubmit={submit} aria-label="Change your password">
        <label className="field">
          <span>Current password</span>
          <input
            className="input"
            type="password"
            autoComplete="current-password"
            value={draft.current}
            onChange={(e) => setDraft({ ...draft, current: e.target.value })}
          />
        </label>
        <label className="field">
          <span>New password</span>
          <input
            className="input"
            type="password"
            autoComplete="new-password"
            minLength={8}
            value={draft.next}
            onChange={(e) => setDraft({ ...draft, next: e.target.value })}
          />
        </label>
        <label className="field">
          <span>Repeat new password</span>
          <input
            className="input"
            type="password"
            autoComplete="new-password"
            aria-invalid={mismatch}
            value={draft.repeat}
            onChange={(e) => setDraft({ ...draft, repeat: e.target.value })}
          />
        </label>
        <button
          type="submit"
          className="button primary"
          disabled={changePassword.isPending || !draft.current || draft.next.length < 8 || draft.next !== draft.repeat}
        >
          Change password
        </button>
      </form>
      <p className="muted small">At least 8 characters. Your other signed-in browsers are signed out; API keys keep working.</p>
      <FormStatus error={changePassword.error} done={done} />
    </section>
  );
}
