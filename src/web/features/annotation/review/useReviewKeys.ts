/**
 * The review page's keyboard, anywhere on the page: digits pick a choice in the active question,
 * Enter submits, s skips, e edits an item already answered or skipped, j/k move to the next/previous item, o opens the trace, ? toggles the help. While typing
 * in a text or number field, keys type; Enter still submits (Shift+Enter is a new line) and
 * Escape leaves the field so the shortcuts work again. Enter on a button or link keeps its
 * usual meaning, except on a choice (role=radio), where it submits.
 */
import { usePageKeys } from '../../../lib/usePageKeys.js';

/** What the keys do; an absent handler leaves its key alone. */
export interface ReviewKeyHandlers {
  onDigit?: (digit: string, event: KeyboardEvent) => void;
  onSubmit?: () => void;
  onSkip?: () => void;
  onNext?: () => void;
  onPrev?: () => void;
  onHelp?: () => void;
  onOpen?: () => void;
  onEdit?: () => void;
}

/** True for elements that take typed text. */
export function isTextField(el: EventTarget | null): el is HTMLElement {
  if (!(el instanceof HTMLElement)) return false;
  if (el.isContentEditable || el.tagName === 'TEXTAREA') return true;
  return el instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(el.type);
}

/** The shortcuts, for the help overlay and the on-screen hints. */
export const SHORTCUTS: readonly { keys: string[]; action: string }[] = [
  { keys: ['1', '…', '9'], action: 'Pick a choice in the current question (yes/no: 1 = yes, 2 = no)' },
  { keys: ['Tab'], action: 'Next question (Shift+Tab: previous)' },
  { keys: ['←', '→'], action: 'Previous / next choice in the current question' },
  { keys: ['Enter'], action: 'Submit and go to the next unfinished call' },
  { keys: ['S'], action: 'Skip this call' },
  { keys: ['E'], action: 'Edit the answers of a call you answered or skipped' },
  { keys: ['J'], action: 'Next call' },
  { keys: ['K'], action: 'Previous call' },
  { keys: ['O'], action: "Open the call's trace in a new tab" },
  { keys: ['Esc'], action: 'Leave a text field (then shortcuts work again)' },
  { keys: ['?'], action: 'Show or hide these shortcuts' },
];

/** Installs the review keys for as long as the component is mounted. */
export function useReviewKeys(h: ReviewKeyHandlers): void {
  // Wherever focus is: the call, the form, the page.
  usePageKeys((e) => {
    const target = e.target instanceof Element ? e.target : null;
    // Another dialog (edit, delete) owns the keyboard while it is open.
    if (target?.closest('dialog') && !target.closest('dialog.help-dialog')) return;
    if (isTextField(e.target)) {
      if (e.key === 'Enter' && !e.shiftKey && h.onSubmit) {
        e.preventDefault();
        h.onSubmit();
      } else if (e.key === 'Escape') {
        // Onto the field's question, so Tab and the shortcuts carry on from there.
        const question = e.target.closest<HTMLElement>('[data-question]');
        if (question) question.focus();
        else e.target.blur();
      }
      return;
    }
    if (/^[0-9]$/.test(e.key)) return h.onDigit?.(e.key, e);
    const act = (fn: (() => void) | undefined) => {
      if (!fn) return;
      e.preventDefault();
      fn();
    };
    switch (e.key) {
      case 'Enter':
        if (target?.closest('a, button:not([role=radio]), select, summary')) return;
        return act(h.onSubmit);
      case 's':
      case 'S':
        return act(h.onSkip);
      case 'j':
      case 'J':
        return act(h.onNext);
      case 'k':
      case 'K':
        return act(h.onPrev);
      case 'o':
      case 'O':
        return act(h.onOpen);
      case 'e':
      case 'E':
        return act(h.onEdit);
      case '?':
        return act(h.onHelp);
    }
  });
}
