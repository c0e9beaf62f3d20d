/** Placeholder for project sections that later work fills: says what will be here, not "broken". */
import type { NavEntry } from './pages.js';

/** A calm "coming soon" page for one section. */
export function ComingSoon({ page }: { page: NavEntry & { soon: true } }) {
  return (
    <div className="page">
      <header className="page-header">
        <h1>{page.label}</h1>
      </header>
      <div className="empty-state">
        <div className="empty-state-badge">Coming soon</div>
        <p>{page.about}</p>
        <p className="muted">This part of the dashboard is not built yet; the API already accepts the data.</p>
      </div>
    </div>
  );
}
