/**
 * Dashboard sign-in sessions and passwords (group "Weft"). Signing in answers with an HttpOnly
 * session cookie (never a token in the body), so nothing secret is left for browser storage.
 * SDKs do not use these: they send an API key with every request (Basic `api:<key>` or Bearer).
 */
import { z } from 'zod';
import { WhoamiRes } from './weft.js';

/** A signed-in browser, as listed in Settings: never its token. */
export const Session = z.object({
  session_id: z.string().describe('Identifies the session for listing and ending it (not a credential)'),
  username: z.string(),
  created_at: z.string().describe('When the user signed in'),
  last_seen_at: z.string().describe('Its latest request, to the minute'),
  expires_at: z.string().describe('The absolute end; it ends sooner after a week (by default) without use'),
  user_agent: z.string(),
  address: z.string().describe('The client address it signed in from'),
  current: z.boolean().describe('True for the session making this request'),
});
export type Session = z.infer<typeof Session>;

const NewPassword = z.string().min(8, 'must be at least 8 characters').max(1024);

// POST /weft/session
export const SessionCreateReq = z.object({
  username: z.string().min(1).max(1024).describe('A username, or `api` to sign in with an API key'),
  password: z.string().min(1).max(1024).describe('The password, or the API key'),
});
export const SessionCreateRes = z.object({ user: WhoamiRes, session: Session });

// DELETE /weft/session
export const SessionEndReq = z.object({});
export const SessionEndRes = z.object({ ended: z.boolean().describe('False when there was no live session to end') });

// GET /weft/sessions
export const SessionsListReq = z.object({
  username: z.string().nullish().describe("Admins only: another user's sessions; default your own"),
});
export const SessionsListRes = z.object({ sessions: z.array(Session).describe('Oldest first') });

// DELETE /weft/sessions/:session_id
export const SessionRevokeReq = z.object({ session_id: z.string().min(1) });
export const SessionRevokeRes = z.object({ ended: z.boolean() });

// DELETE /weft/users/:username/sessions
export const UserSessionsRevokeReq = z.object({ username: z.string().min(1) });
export const UserSessionsRevokeRes = z.object({ num_ended: z.number().int() });

// POST /weft/password
export const PasswordChangeReq = z.object({
  current_password: z.string().min(1).max(1024),
  new_password: NewPassword,
});
export const PasswordChangeRes = z.object({
  num_sessions_ended: z.number().int().describe('Your other signed-in sessions, now ended (this one stays)'),
});

// PUT /weft/users/:username/password
export const UserPasswordResetReq = z.object({ username: z.string().min(1), new_password: NewPassword });
export const UserPasswordResetRes = z.object({ num_sessions_ended: z.number().int().describe("The user's sessions, now ended") });
