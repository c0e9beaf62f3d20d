/**
 * The audit log for Settings (docs/security/audit.md): one page at a time, newest first, through
 * `GET /weft/audit`; downloads go straight to `GET /weft/audit/export`, which streams.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api.js';
import { settingsKeys } from './settingsQueries.js';

/** The filters the section offers, as query parameters (empty ones left out). */
export interface AuditFilter {
  actor?: string;
  action?: string;
  entity?: string;
  project_id?: string;
  since?: string;
  until?: string;
}

export const AUDIT_PAGE_SIZE = 50;

/** Only the filters that are set, so an empty field asks for nothing. */
export const setFilters = (filter: AuditFilter): Record<string, string> =>
  Object.fromEntries(Object.entries(filter).filter(([, v]) => typeof v === 'string' && v.trim() !== '')) as Record<string, string>;

/** One page of rows from `cursor` (null: the newest). */
export function auditPageQueryOptions(filter: AuditFilter, cursor: string | null) {
  const set = setFilters(filter);
  return queryOptions({
    queryKey: settingsKeys.audit(set, cursor),
    queryFn: ({ signal }) => api.auditList({ ...set, limit: AUDIT_PAGE_SIZE, ...(cursor ? { cursor } : {}) }, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** The export URL for the filter: a plain link, so the browser streams the download to disk. */
export const auditExportUrl = (filter: AuditFilter, format: 'csv' | 'jsonl'): string =>
  `/weft/audit/export?${new URLSearchParams({ ...setFilters(filter), format })}`;
