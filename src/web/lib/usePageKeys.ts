/**
 * A page's keys that work wherever the focus is: `onKey` sees every keydown on the document while
 * the component is mounted, except those with Alt, Ctrl or Meta (the browser's and the system's)
 * and those a handler already took (`defaultPrevented`). One listener for the component's life,
 * attached in a layout effect and reading the latest `onKey`, so a key pressed the moment the page
 * shows reaches this page, not the one before it (docs/dashboard.md "Keys and layout").
 */
import { useLayoutEffect, useRef } from 'react';

export function usePageKeys(onKey: (e: KeyboardEvent) => void): void {
  const latest = useRef(onKey);
  useLayoutEffect(() => {
    latest.current = onKey;
  });
  useLayoutEffect(() => {
    const listener = (e: KeyboardEvent) => {
      if (!e.defaultPrevented && !e.altKey && !e.ctrlKey && !e.metaKey) latest.current(e);
    };
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, []);
}
