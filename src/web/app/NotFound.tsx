/** The catch-all page for unknown dashboard paths. */
import { Link } from 'react-router-dom';

/** "Page not found" with a way back. */
export function NotFound() {
  return (
    <div className="page">
      <div className="empty-state">
        <h1>Page not found</h1>
        <p className="muted">There is no dashboard page at this address.</p>
        <Link className="button" to="/">
          Go to projects
        </Link>
      </div>
    </div>
  );
}
