/** A titled, collapsible section whose body renders only while open (closed JSON costs nothing). */
import { useId, useState, type ReactNode } from 'react';
import './section.css';

/** Collapsible section. */
export function Section({
  title,
  defaultOpen = true,
  extra,
  children,
}: {
  title: string;
  defaultOpen?: boolean;
  extra?: ReactNode;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(defaultOpen);
  const id = useId();
  return (
    <section className="section">
      <h3 className="section-title">
        <button type="button" aria-expanded={open} aria-controls={id} onClick={() => setOpen((o) => !o)}>
          <span aria-hidden="true">{open ? '▾' : '▸'}</span> {title}
        </button>
        {extra}
      </h3>
      {open && (
        <div id={id} className="section-body">
          {children}
        </div>
      )}
    </section>
  );
}
