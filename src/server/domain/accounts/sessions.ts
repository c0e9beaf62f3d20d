/**
 * Signing in and out, sessions and passwords, with who-may-do-what in one place: a user lists
 * and ends their own sessions and changes their own password (their other sessions end); an
 * admin does the same for anyone and can set a user's password (all that user's sessions end).
 * After any password change the authenticator forgets cached credentials, so the old password
 * stops working over Basic at once too. API keys are separate credentials and stay valid.
 */
import type { Session } from '../../../contract/sessions.js';
import type { AuthUser, Authenticator } from '../../auth/authenticate.js';
import { readSessionCookie } from '../../auth/sessions.js';
import { BadRequestError, NotFoundError, UnauthorizedError } from '../../errors.js';
import type { SessionRecord, Store } from '../../store/Store.js';
import { requireAdmin } from './accounts.js';
import { formatMicros } from '../../core/datetime.js';

interface Deps {
  store: Store;
  authenticator: Authenticator;
}

/** A stored session as listed (no token, no hash); it expires at its absolute end or after `idleSeconds` unused, whichever is first. */
export const toSession = (s: SessionRecord, currentId: string | null | undefined, idleSeconds: number): Session => ({
  session_id: s.sessionId,
  username: s.username,
  created_at: formatMicros(s.createdAt),
  last_seen_at: formatMicros(s.lastSeenAt),
  expires_at: formatMicros(Math.min(s.expiresAt, s.lastSeenAt + idleSeconds * 1e6)),
  user_agent: s.userAgent,
  address: s.address,
  current: s.sessionId === currentId,
});

/** Checks the password and starts a session; the caller sets the cookie from `token`. */
export async function signIn(
  deps: Deps,
  req: { username: string; password: string; userAgent: string; address: string },
): Promise<{ token: string; user: AuthUser; session: Session }> {
  const user = await deps.authenticator.verifyLogin(req.username, req.password, req.address);
  const { token, session } = await deps.authenticator.sessions.create({
    username: user.username,
    userAgent: req.userAgent,
    address: req.address,
  });
  return { token, user, session: toSession(session, session.sessionId, deps.authenticator.sessions.limits.idleSeconds) };
}

/** Ends the session a cookie names, if it is live; answers whose it was when one ended. */
export async function signOut(deps: Deps, cookieHeader: string | undefined): Promise<{ ended: boolean; username: string | null }> {
  const token = readSessionCookie(cookieHeader);
  const session = token ? await deps.authenticator.sessions.resolve(token) : null;
  const ended = session ? await deps.store.accounts.deleteSession(session.sessionId) : false;
  return { ended, username: ended ? session!.username : null };
}

/** The caller's sessions, or (admins) another user's. */
export async function listSessions(deps: Deps, caller: AuthUser, username: string | null | undefined): Promise<Session[]> {
  const owner = username ?? caller.username;
  if (owner !== caller.username) requireAdmin(caller, "list other users' sessions");
  return (await deps.store.accounts.listSessions(owner)).map((s) =>
    toSession(s, caller.sessionId, deps.authenticator.sessions.limits.idleSeconds),
  );
}

/** Ends one of the caller's sessions (any session, for admins); answers whether it ended and whose it was. */
export async function revokeSession(deps: Deps, caller: AuthUser, sessionId: string): Promise<{ ended: boolean; username: string }> {
  const session = await deps.store.accounts.getSession(sessionId);
  if (!session) throw new NotFoundError(`No session with id ${sessionId} (it may have ended already)`);
  if (session.username !== caller.username) requireAdmin(caller, "end other users' sessions");
  return { ended: await deps.store.accounts.deleteSession(sessionId), username: session.username };
}

/** Ends every session of a user (admins only). */
export async function revokeUserSessions(deps: Deps, caller: AuthUser, username: string): Promise<number> {
  requireAdmin(caller, "end other users' sessions");
  if (!(await deps.store.accounts.getUser(username))) throw new NotFoundError(`No user "${username}"`);
  return deps.store.accounts.deleteUserSessions(username);
}

/** Changes the caller's password after checking the current one; their other sessions end. */
export async function changeOwnPassword(
  deps: Deps,
  caller: AuthUser,
  req: { current_password: string; new_password: string; address: string },
): Promise<number> {
  try {
    await deps.authenticator.verifyLogin(caller.username, req.current_password, req.address);
  } catch (err) {
    // A wrong current password is a bad request, not "you are signed out" (which would send the dashboard to the login page).
    if (err instanceof UnauthorizedError) throw new WrongPasswordError();
    throw err;
  }
  await deps.store.accounts.upsertUser({
    username: caller.username,
    passwordHash: await deps.authenticator.hashPassword(req.new_password),
  });
  deps.authenticator.forget();
  return deps.store.accounts.deleteUserSessions(caller.username, caller.sessionId ?? null);
}

/** Sets a user's password (admins only); all the user's sessions end. */
export async function resetPassword(deps: Deps, caller: AuthUser, req: { username: string; new_password: string }): Promise<number> {
  requireAdmin(caller, "set other users' passwords");
  if (!(await deps.store.accounts.getUser(req.username))) throw new NotFoundError(`No user "${req.username}"`);
  await deps.store.accounts.upsertUser({ username: req.username, passwordHash: await deps.authenticator.hashPassword(req.new_password) });
  deps.authenticator.forget();
  return deps.store.accounts.deleteUserSessions(req.username, req.username === caller.username ? (caller.sessionId ?? null) : null);
}

/** 400 for a wrong current password on a password change. */
class WrongPasswordError extends BadRequestError {
  constructor() {
    super('The current password is wrong');
  }
}
