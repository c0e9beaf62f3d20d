/**
 * Signing out, in every tab. The session lives in an HttpOnly cookie the page cannot read or
 * remove, so signing out asks the server to end it; the other tabs of this browser hear of it
 * on a BroadcastChannel and go to the login page at once instead of at their next request.
 */
import { api } from './api.js';

const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('weft.auth');

/** Ends the server-side session and tells the other tabs. */
export async function signOut(): Promise<void> {
  try {
    await api.sessionEnd({});
  } finally {
    channel?.postMessage('signed-out');
  }
}

/** Runs `onSignedOut` when another tab signs out. */
export function onSignedOutElsewhere(onSignedOut: () => void): void {
  channel?.addEventListener('message', (e: MessageEvent) => {
    if (e.data === 'signed-out') onSignedOut();
  });
}

/** The login page's URL for coming back to `here` after signing in. */
export function loginUrl(here: string): string {
  return here === '/' || here.startsWith('/login') ? '/login' : `/login?next=${encodeURIComponent(here)}`;
}
