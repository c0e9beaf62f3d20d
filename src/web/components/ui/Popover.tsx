/** A button that opens a floating panel; closes on Escape and outside clicks. */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

/** Popover props: the trigger's content and a panel render function given `close`. */
export interface PopoverProps {
  label: ReactNode;
  /** Accessible name of the trigger when `label` is not text. */
  ariaLabel?: string;
  className?: string;
  align?: 'start' | 'end';
  children: (close: () => void) => ReactNode;
}

/** Disclosure-style popover (button + panel). */
export function Popover({ label, ariaLabel, className = 'button', align = 'start', children }: PopoverProps) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const id = useId();

  // Listening on the document is the only way to see clicks outside the panel.
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return (
    <div className="popover" ref={ref}>
      <button
        type="button"
        className={className}
        aria-expanded={open}
        aria-controls={id}
        aria-label={ariaLabel}
        onClick={() => setOpen((o) => !o)}
      >
        {label}
      </button>
      {open && (
        <div id={id} className={`popover-panel align-${align}`}>
          {children(() => setOpen(false))}
        </div>
      )}
    </div>
  );
}
