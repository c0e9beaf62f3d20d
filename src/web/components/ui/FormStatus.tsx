/** What a Settings form says after a submit: the failure in words, or what was done. */
import { describeError } from './ErrorState.js';
import './formStatus.css';

export function FormStatus({ error, done }: { error?: unknown; done?: string | null }) {
  return (
    <>
      {error != null && (
        <p className="form-error" role="alert">
          {describeError(error).detail}
        </p>
      )}
      {done && (
        <p className="settings-ok" role="status">
          {done}
        </p>
      )}
    </>
  );
}
