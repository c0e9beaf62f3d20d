/** What shows in the shell while a page's code or first data loads. */
import { Spinner } from '../components/ui/Spinner.js';

/** A page's loading state, inside the shell. */
export function PageLoading() {
  return (
    <div className="page-loading">
      <Spinner showLabel />
    </div>
  );
}
