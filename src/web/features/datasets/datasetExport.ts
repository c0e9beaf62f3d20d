/**
 * Exports a dataset version's rows as a CSV or JSON-lines download (docs/datasets.md "Dataset
 * page"). The rows come from the cached all-rows query the diff also reads.
 */
import type { QueryClient } from '@tanstack/react-query';
import { toCsv, toJsonl } from './datasetModel.js';
import { allRowsQueryOptions } from './datasetQueries.js';

export type ExportFormat = 'csv' | 'jsonl';

/** Downloads `<name>-v<N>.<format>`. */
export async function exportRows(
  queryClient: QueryClient,
  { projectId, tableDigest, fileName, format }: { projectId: string; tableDigest: string; fileName: string; format: ExportFormat },
): Promise<void> {
  const rows = (await queryClient.fetchQuery(allRowsQueryOptions(projectId, tableDigest))).map((r) => r.val);
  const text = format === 'csv' ? toCsv(rows) : toJsonl(rows);
  const blob = new Blob([text], { type: format === 'csv' ? 'text/csv' : 'application/jsonl' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = `${fileName}.${format}`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
