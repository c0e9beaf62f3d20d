/**
 * Credentials in threaded mode: a request thread keeps a cache of verified credentials (the
 * Authenticator's own), but a cache miss is checked by the process's main thread, whose
 * Authenticator holds the one login throttle, the one bound on concurrent password hashes and
 * the one-check-per-burst rule. Checked per thread, a burst of requests with new credentials
 * would hash once per thread, and an attacker would get one throttle allowance per thread.
 * Password hashing (scrypt) runs on libuv's pool, so it does not block the main thread.
 */
import type { AuthUser, Authenticator, CredentialChecker } from '../auth/authenticate.js';
import { fromErrorData, toErrorData } from './errorData.js';
import type { AuthCall, FromWorker, ToWorker } from './messages.js';

type Authed = Extract<ToWorker, { t: 'authed' }>;

/** In a request thread: a CredentialChecker that asks the main thread, and where its answers arrive. */
export function mainThreadChecker(post: (msg: FromWorker) => void): { checker: CredentialChecker; settle(msg: Authed): void } {
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  let next = 1;
  const ask = <T>(call: AuthCall): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const aid = next++;
      pending.set(aid, { resolve: resolve as (v: unknown) => void, reject });
      post({ t: 'auth', aid, call });
    });
  return {
    checker: {
      verifyHeader: (header, address) => ask<AuthUser>({ op: 'verifyHeader', header, address }),
      verifyLogin: (username, password, address) => ask<AuthUser>({ op: 'verifyLogin', username, password, address }),
      hashPassword: (password) => ask<string>({ op: 'hashPassword', password }),
    },
    settle(msg) {
      const p = pending.get(msg.aid);
      pending.delete(msg.aid);
      if (msg.ok) p?.resolve(msg.value);
      else p?.reject(fromErrorData(msg.error));
    },
  };
}

/** On the main thread: answers one request thread's check with the process's Authenticator. */
export async function answerAuthCall(authenticator: Authenticator, aid: number, call: AuthCall): Promise<Authed> {
  try {
    const value =
      call.op === 'verifyHeader'
        ? await authenticator.authenticate(call.header, { address: call.address })
        : call.op === 'verifyLogin'
          ? await authenticator.verifyLogin(call.username, call.password, call.address)
          : await authenticator.hashPassword(call.password);
    return { t: 'authed', aid, ok: true, value };
  } catch (err) {
    return { t: 'authed', aid, ok: false, error: toErrorData(err) };
  }
}
