/**
 * A notice above a list whose link (URL) held something the page could not use — an unknown
 * sort field, an unreadable filter. The page shows its defaults instead and says so here,
 * with a way to drop the bad part from the address.
 */
import './notice.css';

/** Props: what was ignored, and how to clean the URL. */
export interface ViewNoticeProps {
  problems: string[];
  onDismiss: () => void;
}

/** "Ignored from this link: …" with a Dismiss button. */
export function ViewNotice({ problems, onDismiss }: ViewNoticeProps) {
  if (problems.length === 0) return null;
  return (
    <div className="view-notice" role="status">
      <span>Ignored from this link: {problems.join('; ')}. Showing the default instead.</span>
      <button type="button" className="button ghost small" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
