/**
 * Your signed-in sessions: where and when each began, when it was last used, its browser, this
 * one marked; any other can be ended (it is signed out at its next request). Signing out of this
 * one is the account menu's "Log out".
 */
import { useSuspenseQuery } from '@tanstack/react-query';
import { ConfirmButton } from '../../components/ui/ConfirmButton.js';
import { formatDateTime, formatRelative } from '../../lib/format.js';
import { sessionsQueryOptions, useSessionMutations } from './sessionQueries.js';
import { describeAgent } from './userAgent.js';
import { FormStatus } from '../../components/ui/FormStatus.js';
import './settings.css';

/** The sessions card. */
export function SessionsSection() {
  const { data: sessions } = useSuspenseQuery(sessionsQueryOptions());
  const { revoke } = useSessionMutations();
  return (
    <section className="card settings-section" id="sessions" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Sessions</h2>
      <p className="muted">
        Browsers signed in as you. A session ends when you log out, after a week unused or 30 days at most, when your password changes, or
        when you end it here. SDKs use API keys and are not affected.
      </p>
      <FormStatus error={revoke.error} />
      <table className="simple-table" aria-label="Your sessions">
        <thead>
          <tr>
            <th>Browser</th>
            <th>Address</th>
            <th>Signed in</th>
            <th>Last seen</th>
            <th aria-label="Actions" />
          </tr>
        </thead>
        <tbody>
          {[...sessions].reverse().map((s) => (
            <tr key={s.session_id}>
              <td className="session-agent" title={s.user_agent}>
                {describeAgent(s.user_agent)}
                {s.current && <span className="tag">this session</span>}
              </td>
              <td className="mono">{s.address || '—'}</td>
              <td title={formatDateTime(s.created_at)}>{formatRelative(s.created_at)}</td>
              <td title={formatDateTime(s.last_seen_at)}>{formatRelative(s.last_seen_at)}</td>
              <td className="right">
                {!s.current && (
                  <ConfirmButton
                    label="End"
                    ariaLabel={`End session ${describeAgent(s.user_agent)} from ${formatRelative(s.created_at)}`}
                    question="That browser is signed out at once."
                    confirmLabel="End session"
                    disabled={revoke.isPending}
                    onConfirm={() => revoke.mutate(s.session_id)}
                  />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
