/**
 * The process's dependencies, in one object: built once where the process starts (`main.ts`,
 * or a request thread's `requestWorker.ts`), handed to `createApp` and through `mountRoutes`
 * to every route group. Each request's context (`RequestContext`) extends it, so a handler
 * reads `store`, `clock` or `inference` from the context it is given, and adding a dependency
 * means adding it here and where the object is built, nowhere else.
 */
import type { AuditTrail } from './audit/auditTrail.js';
import type { Authenticator } from './auth/authenticate.js';
import type { OidcSignIn } from './auth/oidc.js';
import type { Clock } from './core/clock.js';
import type { Limits } from './limits.js';
import type { Logger } from './logger.js';
import type { InferenceServices } from './providers/InferenceServices.js';
import type { Store } from './store/Store.js';

export { systemClock, type Clock } from './core/clock.js';

export interface Services {
  store: Store;
  authenticator: Authenticator;
  log: Logger;
  clock: Clock;
  /** Model providers and background jobs. */
  inference: InferenceServices;
  /** What one request may ask (limits.ts). */
  limits: Limits;
  /**
   * The URL this server is reached at: WEFT_PUBLIC_URL, else the address it listens on. What
   * the server says of itself, never taken from a request's `Host` (docs/security/inputs.md).
   */
  publicUrl: string;
  /** Where security- and data-relevant actions are recorded (audit/auditTrail.ts). */
  audit: AuditTrail;
  /** Single sign-on (auth/oidc.ts): on the main thread when configured; absent in request threads and without WEFT_OIDC_ISSUER. */
  oidc?: OidcSignIn | null;
}
