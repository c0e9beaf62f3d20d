/** What shows while the first route loads: a quiet spinner, never a blank page. */
import { Spinner } from '../components/ui/Spinner.js';

/** Full-page loading state. */
export function Splash() {
  return (
    <div className="splash">
      <Spinner label="Loading Weft" />
    </div>
  );
}
