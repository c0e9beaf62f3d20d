/**
 * Downloads calls as JSON lines or CSV through `POST /weft/calls/export`, streamed: where the
 * browser has a save dialog with a writable file (Chromium's File System Access API) the
 * response is piped straight to disk; elsewhere it becomes a Blob download.
 */
import type { ReqOf } from '../../../contract/endpoints.js';
import { api } from '../../lib/api.js';

/** Export file formats. */
export type ExportFormat = 'jsonl' | 'csv';

/** The export request, as the contract types it. */
export type CallsExportReq = ReqOf<'callsExport'>;

interface SavePicker {
  (options: { suggestedName: string; types: { description: string; accept: Record<string, string[]> }[] }): Promise<{
    createWritable(): Promise<WritableStream<Uint8Array>>;
  }>;
}

const MIME: Record<ExportFormat, string> = { jsonl: 'application/jsonl', csv: 'text/csv' };

/** `attachment; filename="x.csv"` → `x.csv`. */
function fileNameOf(res: Response, fallback: string): string {
  const m = /filename="?([^";]+)"?/i.exec(res.headers.get('content-disposition') ?? '');
  return m?.[1] ?? fallback;
}

/** Exports; resolves to 'saved', 'downloaded' or 'cancelled' (the person closed the save dialog). */
export async function exportCalls({
  req,
  suggestedName,
}: {
  req: CallsExportReq;
  suggestedName: string;
}): Promise<'saved' | 'downloaded' | 'cancelled'> {
  const format = req.format ?? 'jsonl';
  const picker = (window as unknown as { showSaveFilePicker?: SavePicker }).showSaveFilePicker;
  if (picker) {
    // Ask for the file first: the dialog needs the click's user activation, which awaiting the
    // server could outlive.
    let handle;
    try {
      handle = await picker({ suggestedName, types: [{ description: format.toUpperCase(), accept: { [MIME[format]]: [`.${format}`] } }] });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return 'cancelled';
      throw error;
    }
    const writable = await handle.createWritable();
    try {
      const res = await api.callsExport(req);
      if (!res.body) throw new Error('The server sent an empty export');
      await res.body.pipeTo(writable);
      return 'saved';
    } catch (error) {
      await writable.abort().catch(() => undefined);
      throw error;
    }
  }
  const res = await api.callsExport(req);
  const blob = await res.blob();
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileNameOf(res, suggestedName);
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return 'downloaded';
}
