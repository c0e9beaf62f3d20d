/** A server error in words, with a retry: the one way every page reports failures. */
import { HttpError } from '../../../client/index.js';

/** Describes an error for people: the server's own reason when it gave one. */
export function describeError(error: unknown): { title: string; detail: string } {
  if (error instanceof HttpError) {
    const titles: Record<number, string> = {
      400: 'The server could not use this request',
      401: 'You are signed out',
      403: 'You do not have access to this',
      404: 'Not found',
      413: 'The request is too large',
      422: 'The request was not valid',
    };
    const title = titles[error.status] ?? (error.status >= 500 ? 'The server had a problem' : `Request failed (${error.status})`);
    return { title, detail: error.message };
  }
  if (error instanceof TypeError) {
    return { title: 'Cannot reach the Weft server', detail: 'Check that it is running and that your network is up.' };
  }
  return { title: 'Something went wrong', detail: error instanceof Error ? error.message : String(error) };
}

/** Answers that the same request will get again: retrying them cannot help. */
const FINAL = new Set([400, 401, 403, 404, 413, 422]);

/** Inline error block; `onRetry` adds a Retry button unless the error is final (a 404, say). */
export function ErrorState({ error, onRetry: retry, compact = false }: { error: unknown; onRetry?: () => void; compact?: boolean }) {
  const { title, detail } = describeError(error);
  const onRetry = error instanceof HttpError && FINAL.has(error.status) ? undefined : retry;
  return (
    <div className={compact ? 'error-state compact' : 'error-state'} role="alert">
      <div>
        <strong>{title}</strong>
        <p>{detail}</p>
      </div>
      {onRetry && (
        <button type="button" className="button" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}
