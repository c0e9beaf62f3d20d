/**
 * Keyboard walking through a thread's turns, anywhere on the page: ↓/j next, ↑/k previous,
 * Home/End first and last, Enter opens the selected turn's trace. Keys typed into fields, and
 * Enter on a link or button, keep their usual meaning.
 */
import { useRef } from 'react';
import { usePageKeys } from '../../../lib/usePageKeys.js';

/** What the keys act on. */
export interface TurnKeysOptions {
  count: number;
  selectedIndex: number;
  onSelect: (index: number) => void;
  onOpen: (index: number) => void;
  /** Called when ↓ is pressed on the last loaded turn (to load the next page). */
  onPastEnd?: () => void;
}

const isField = (el: Element) =>
  el instanceof HTMLElement && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));

/** Installs the turn keys for as long as the component is mounted. */
export function useTurnKeys(options: TurnKeysOptions): void {
  // Key repeat can outrun the URL update and re-render: a second ↓ must move on from where the
  // first one went. `pending` are moves sent but not yet seen in the selection; a selection
  // change that is not one of them (a click, the back button) resets the cursor to it.
  const cursor = useRef({ seen: options.selectedIndex, at: options.selectedIndex, pending: [] as number[] });
  const c = cursor.current;
  if (c.seen !== options.selectedIndex) {
    const k = c.pending.indexOf(options.selectedIndex);
    c.pending = k >= 0 ? c.pending.slice(k + 1) : [];
    c.at = c.pending.at(-1) ?? options.selectedIndex;
    c.seen = options.selectedIndex;
  }

  // Wherever focus is on the page: the list, the chat.
  usePageKeys((e) => {
    if (e.target instanceof Element && isField(e.target)) return;
    const { count, onSelect, onOpen, onPastEnd } = options;
    if (count === 0) return;
    const selectedIndex = Math.min(cursor.current.at, count - 1);
    const go = (index: number) => {
      e.preventDefault();
      const target = Math.max(0, Math.min(count - 1, index));
      if (target === cursor.current.at) return;
      cursor.current.at = target;
      cursor.current.pending.push(target);
      onSelect(target);
    };
    switch (e.key) {
      case 'ArrowDown':
      case 'j':
        if (selectedIndex >= count - 1) onPastEnd?.();
        return go(selectedIndex + 1);
      case 'ArrowUp':
      case 'k':
        return go(selectedIndex - 1);
      case 'Home':
        return go(0);
      case 'End':
        return go(count - 1);
      case 'Enter':
        if (e.target instanceof Element && e.target.closest('a,button,[role=button]')) return;
        e.preventDefault();
        onOpen(selectedIndex);
    }
  });
}
