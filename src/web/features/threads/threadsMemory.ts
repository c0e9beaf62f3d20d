/**
 * What the threads list remembers while the tab lives, per project: the view it showed (its
 * URL search), where it was scrolled and which row had the cursor. Coming back from a thread
 * (by "← Threads", the browser's Back, or a trace's "← Thread") then lands on the same rows
 * with the same row under the cursor; the thread page walks the same order for next/previous.
 */

/** The remembered list of one project. */
export interface ThreadsListMemory {
  /** The list's URL search (`?sort=…`), '' for the default view. */
  search: string;
  scrollTop: number;
  /** The thread under the keyboard cursor (or last opened). */
  cursorId: string | null;
}

const memory = new Map<string, ThreadsListMemory>();

/** What the project's list last remembered, if anything. */
export const recallThreadsList = (projectId: string): ThreadsListMemory | undefined => memory.get(projectId);

/** Updates the project's memory; a different search starts from the top. */
export function rememberThreadsList(projectId: string, patch: Partial<ThreadsListMemory> & { search: string }): void {
  const prev = memory.get(projectId);
  const base = prev && prev.search === patch.search ? prev : { search: patch.search, scrollTop: 0, cursorId: null };
  memory.set(projectId, { ...base, ...patch });
}
