/**
 * The signed-in person's HTTP Basic credentials, kept in sessionStorage: they last for this
 * browser tab's session and are gone when it closes, so nothing long-lived sits on disk.
 */

const KEY = 'weft.credentials';

/** A username and password (or `api` and an API key). */
export interface Credentials {
  username: string;
  password: string;
}

/** The stored credentials, or null when signed out. */
export function readCredentials(): Credentials | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<Credentials>;
    return typeof parsed.username === 'string' && typeof parsed.password === 'string'
      ? { username: parsed.username, password: parsed.password }
      : null;
  } catch {
    return null;
  }
}

/** Remembers credentials for this browser session. */
export function saveCredentials(credentials: Credentials): void {
  sessionStorage.setItem(KEY, JSON.stringify(credentials));
}

/** Forgets the credentials (logout, or the server refused them). */
export function clearCredentials(): void {
  sessionStorage.removeItem(KEY);
}
