/**
 * Which view of the threads list (its URL search) was shown last, per project, while the tab
 * lives: a thread page reached without it (a reload, a link) still walks and links back to that
 * list. Where the list was scrolled and its cursor row are kept by the table (useListPlace).
 */

/** The remembered list of one project. */
export interface ThreadsListMemory {
  /** The list's URL search (`?sort=…`), '' for the default view. */
  search: string;
}

const memory = new Map<string, ThreadsListMemory>();

/** What the project's list last remembered, if anything. */
export const recallThreadsList = (projectId: string): ThreadsListMemory | undefined => memory.get(projectId);

/** Remembers the view the project's list shows. */
export function rememberThreadsList(projectId: string, list: ThreadsListMemory): void {
  memory.set(projectId, list);
}
