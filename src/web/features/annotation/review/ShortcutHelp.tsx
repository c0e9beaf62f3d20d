/** The `?` overlay: every review shortcut in one table. */
import { ModalDialog } from '../../../components/ui/ModalDialog.js';
import { SHORTCUTS } from './useReviewKeys.js';
import '../annotation.css';
import './review.css';

/** Keyboard help dialog. */
export function ShortcutHelp({ onClose }: { onClose: () => void }) {
  return (
    <ModalDialog title="Keyboard shortcuts" onClose={onClose} className="help-dialog">
      <div className="modal-body">
        <table className="shortcut-table">
          <tbody>
            {SHORTCUTS.map((s) => (
              <tr key={s.action}>
                <td className="shortcut-keys">{s.keys.map((k, i) => (k === '…' ? <span key={i}> … </span> : <kbd key={i}>{k}</kbd>))}</td>
                <td>{s.action}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </ModalDialog>
  );
}
