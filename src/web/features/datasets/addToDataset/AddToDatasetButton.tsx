/**
 * The "Add to dataset" button of a selection toolbar (Calls, Threads, a queue's items): disabled
 * until something is selected, and opening the dialog for what is (docs/datasets.md "Add to
 * dataset").
 */
import { useState } from 'react';
import type { DatasetRowSource } from './addToDatasetQueries.js';
import { AddToDatasetDialog } from './AddToDatasetDialog.js';

/** Props: the project, the selection as a source (null: nothing selected), and what to select. */
export interface AddToDatasetButtonProps {
  projectId: string;
  source: DatasetRowSource | null;
  /** "calls", "threads", "items": said while nothing is selected. */
  noun: string;
}

/** Button and, while open, its dialog. */
export function AddToDatasetButton({ projectId, source, noun }: AddToDatasetButtonProps) {
  // The selection when the dialog opened: it stays what the dialog adds while it is open.
  const [opened, setOpened] = useState<DatasetRowSource | null>(null);
  return (
    <>
      <button
        type="button"
        className="button"
        disabled={!source}
        title={source ? undefined : `Select ${noun} first`}
        onClick={() => setOpened(source)}
      >
        Add to dataset
      </button>
      {opened && <AddToDatasetDialog projectId={projectId} source={opened} onClose={() => setOpened(null)} />}
    </>
  );
}

/** The selection as a source, or null when empty. */
export const selectionSource = {
  calls: (ids: string[]): DatasetRowSource | null => (ids.length ? { kind: 'calls', call_ids: ids } : null),
  threads: (ids: string[]): DatasetRowSource | null => (ids.length ? { kind: 'threads', thread_ids: ids } : null),
  queueItems: (queueId: string, ids: string[]): DatasetRowSource | null =>
    ids.length ? { kind: 'queue_items', queue_id: queueId, item_ids: ids } : null,
};
