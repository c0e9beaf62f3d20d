/**
 * A modal built on the native `<dialog>`: the browser traps focus, makes the page inert and
 * closes on Escape. Render it only while open; it opens itself on mount.
 */
import { useEffect, useId, useRef, type ReactNode } from 'react';
import './modal.css';

/** Props: the title, what closing does, and the body. */
export interface ModalDialogProps {
  title: string;
  onClose: () => void;
  className?: string;
  children: ReactNode;
}

/** Modal dialog, open while mounted. */
export function ModalDialog({ title, onClose, className = '', children }: ModalDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  // showModal() is the only way into the top layer; this syncs the DOM, it fetches nothing.
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      className={`modal ${className}`}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <header className="modal-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="button ghost icon" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </header>
      {children}
    </dialog>
  );
}
