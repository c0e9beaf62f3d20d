/**
 * The pages that have saved views and their `view_type`s (docs/saved-views.md), apart from the
 * view model so the navigation can ask without loading the calls filter code.
 */
export const VIEW_PAGES = [
  { path: 'calls', viewType: 'traces', noun: 'calls' },
  { path: 'threads', viewType: 'weft.threads', noun: 'threads' },
  { path: 'evaluations', viewType: 'weft.evaluations', noun: 'evaluations' },
] as const;

export type ViewType = (typeof VIEW_PAGES)[number]['viewType'];
export type ViewPagePath = (typeof VIEW_PAGES)[number]['path'];

export const viewTypeOf = (path: string): ViewType | null => VIEW_PAGES.find((p) => p.path === path)?.viewType ?? null;
export const pathOf = (viewType: string): ViewPagePath | null => VIEW_PAGES.find((p) => p.viewType === viewType)?.path ?? null;
