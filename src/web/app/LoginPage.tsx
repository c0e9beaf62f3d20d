/**
 * Sign in with a Weft username and password (or `api` and an API key). `POST /weft/session`
 * checks them and answers with an HttpOnly session cookie: the password is sent once and kept
 * nowhere, and every tab of this browser (new tabs, shared links) is signed in with the cookie.
 * With single sign-on configured, "Sign in with <name>" goes through the identity provider
 * (docs/security/sso.md); when it is the only way in, the password form is kept for the
 * break-glass administrators behind a small link.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useLayoutEffect, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { HttpError } from '../../client/index.js';
import { oidcConfigQueryOptions, whoamiQueryOptions } from '../features/auth/authQueries.js';
import { describeError } from '../components/ui/ErrorState.js';
import { api } from '../lib/api.js';
import { dropEarlyPaint } from '../lib/earlyPaint.js';
import { ThemeToggle } from './ThemeToggle.js';
import './login.css';

/** Only same-site paths are followed after login, never another origin. */
function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

/** The login page. */
export function LoginPage() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  // A trace page painted before the app's code (an expired session) gives way to the sign-in.
  useLayoutEffect(dropEarlyPaint, []);
  const [params] = useSearchParams();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [adminSignIn, setAdminSignIn] = useState(false);
  const sso = useQuery(oidcConfigQueryOptions()).data;
  const ssoOnly = sso?.enabled === true && sso.password_sign_in === 'break_glass';
  const showPasswordForm = !ssoOnly || adminSignIn;

  const login = useMutation({
    mutationFn: (credentials: { username: string; password: string }) => api.sessionCreate(credentials),
    onSuccess: ({ user }) => {
      queryClient.clear();
      queryClient.setQueryData(whoamiQueryOptions().queryKey, user);
      void navigate(safeNext(params.get('next')), { replace: true });
    },
  });
  const next = params.get('next');
  const notice = params.get('signed_out')
    ? 'You have signed out.'
    : next && safeNext(next) !== '/'
      ? 'Sign in to see this page; you will be taken back to it.'
      : null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    login.mutate({ username: username.trim(), password });
  };

  const failure = login.error ? describeLoginError(login.error) : null;

  return (
    <div className="login">
      <div className="login-theme">
        <ThemeToggle />
      </div>
      <form className="login-card" onSubmit={submit}>
        <div className="login-brand">
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <h1>Sign in to Weft</h1>
        </div>
        {notice && (
          <p className="login-notice" role="status">
            {notice}
          </p>
        )}
        {sso?.enabled && (
          <div className="login-sso">
            {sso.available ? (
              <a className="button primary wide" href={`/weft/oidc/start?return_to=${encodeURIComponent(safeNext(next))}`}>
                Sign in with {sso.name}
              </a>
            ) : (
              <>
                <button type="button" className="button primary wide" disabled>
                  Sign in with {sso.name}
                </button>
                <p className="form-error" role="alert">
                  Single sign-on is unavailable: {sso.unavailable_reason}. Try again in a minute.
                </p>
              </>
            )}
          </div>
        )}
        {ssoOnly && !adminSignIn && (
          <button type="button" className="link-button muted small" onClick={() => setAdminSignIn(true)}>
            Administrator sign-in
          </button>
        )}
        {sso?.enabled && showPasswordForm && (
          <div className="login-divider muted small">{ssoOnly ? 'Administrators only' : 'or with a password'}</div>
        )}
        {showPasswordForm && (
          <>
            <label className="field">
              <span>Username</span>
              <input
                className="input"
                name="username"
                autoComplete="username"
                autoFocus
                required
                value={username}
                onChange={(e) => setUsername(e.target.value)}
              />
            </label>
            <label className="field">
              <span>Password or API key</span>
              <input
                className="input"
                name="password"
                type="password"
                autoComplete="current-password"
                required
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            </label>
            {failure && (
              <p className="form-error" role="alert">
                {failure}
              </p>
            )}
            <button type="submit" className={sso?.enabled ? 'button wide' : 'button primary wide'} disabled={login.isPending}>
              {login.isPending ? 'Signing in…' : 'Sign in'}
            </button>
          </>
        )}
        {showPasswordForm && (
          <p className="muted small">
            First start? The admin password was printed by <code>weft serve</code>, or set it with <code>WEFT_ADMIN_PASSWORD</code>. To use
            an API key, sign in as <code>api</code>.
          </p>
        )}
      </form>
    </div>
  );
}

/** Wrong password, throttled (429) or busy (503), in words; the server's reason says how long to wait. */
function describeLoginError(error: unknown): string {
  if (error instanceof HttpError && error.status === 401) return 'Wrong username or password.';
  // Single sign-on only (WEFT_OIDC_ONLY): the server says which button to use.
  if (error instanceof HttpError && error.status === 403) return describeError(error).detail;
  if (error instanceof HttpError && (error.status === 429 || error.status === 503)) return `${describeError(error).detail}`;
  return `${describeError(error).title}: ${describeError(error).detail}`;
}
