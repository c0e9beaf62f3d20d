/**
 * A button for a destructive action that asks first, in place: pressing it shows the question
 * with a confirm and a cancel button (Escape cancels), so nothing is lost to a stray click and
 * no browser dialog interrupts the page.
 */
import { useEffect, useRef, useState } from 'react';
import './confirm.css';

/** Props: the button's text, the question, and what confirming does. */
export interface ConfirmButtonProps {
  label: string;
  /** Accessible name of the first button when `label` alone is ambiguous ("Revoke laptop"). */
  ariaLabel?: string;
  question: string;
  confirmLabel: string;
  onConfirm: () => void;
  disabled?: boolean;
  className?: string;
}

/** Ask-first button. */
export function ConfirmButton({
  label,
  ariaLabel,
  question,
  confirmLabel,
  onConfirm,
  disabled = false,
  className = 'button small ghost',
}: ConfirmButtonProps) {
  const [asking, setAsking] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) confirmRef.current?.focus();
  }, [asking]);

  if (!asking) {
    return (
      <button type="button" className={className} aria-label={ariaLabel} disabled={disabled} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <span className="confirm" role="group" aria-label={question} onKeyDown={(e) => e.key === 'Escape' && setAsking(false)}>
      <span className="confirm-question">{question}</span>
      <button
        ref={confirmRef}
        type="button"
        className="button small danger"
        disabled={disabled}
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" className="button small ghost" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
