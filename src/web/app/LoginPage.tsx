/**
 * Sign in with a Weft username and password (or `api` and an API key). The credentials are
 * checked with `GET /weft/whoami` and kept for this browser session only.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { HttpError } from '../../client/index.js';
import { authKeys, whoamiQueryOptions } from '../features/auth/authQueries.js';
import { describeError } from '../components/ui/ErrorState.js';
import { clearCredentials, saveCredentials, type Credentials } from '../lib/session.js';
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
  const [params] = useSearchParams();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');

  const login = useMutation({
    mutationFn: async (credentials: Credentials) => {
      saveCredentials(credentials);
      queryClient.removeQueries({ queryKey: authKeys.all });
      try {
        return await queryClient.fetchQuery(whoamiQueryOptions());
      } catch (error) {
        clearCredentials();
        throw error;
      }
    },
    onSuccess: () => navigate(safeNext(params.get('next')), { replace: true }),
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    login.mutate({ username: username.trim(), password });
  };

  const failure = login.error
    ? login.error instanceof HttpError && login.error.status === 401
      ? 'Wrong username or password.'
      : `${describeError(login.error).title}: ${describeError(login.error).detail}`
    : null;

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
        <button type="submit" className="button primary wide" disabled={login.isPending}>
          {login.isPending ? 'Signing in…' : 'Sign in'}
        </button>
        <p className="muted small">
          First start? The admin password was printed by <code>weft serve</code>, or set it with <code>WEFT_ADMIN_PASSWORD</code>. To use an
          API key, sign in as <code>api</code>.
        </p>
      </form>
    </div>
  );
}
