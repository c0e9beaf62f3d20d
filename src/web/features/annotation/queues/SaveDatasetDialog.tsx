/**
 * "Save as dataset": the queue's answered items become a new Dataset version (the call's
 * inputs and output beside an answer per question), ready to evaluate against.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { api } from '../../../lib/api.js';
import { formatInteger } from '../../../lib/format.js';
import { objectKeys } from '../../objects/objectQueries.js';
import { ModalDialog } from '../../../components/ui/ModalDialog.js';

/** A dataset name from a queue name: letters, digits, _, - and . only. */
const datasetName = (queueName: string) =>
  queueName
    .trim()
    .toLowerCase()
    .replace(/[^\w.-]+/g, '-')
    .replace(/^-+|-+$/g, '') || 'queue-answers';

/** Save-as-dataset dialog. */
export function SaveDatasetDialog({
  projectId,
  queueId,
  queueName,
  onClose,
}: {
  projectId: string;
  queueId: string;
  queueName: string;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(() => `${datasetName(queueName)}-answers`);
  const [includeSkipped, setIncludeSkipped] = useState(false);
  const save = useMutation({
    mutationFn: () =>
      api.annotationQueueSaveDataset({ project_id: projectId, queue_id: queueId, name: name.trim(), include_skipped: includeSkipped }),
    // New object versions: refresh anything listing objects.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: objectKeys.project(projectId) }),
  });
  const objectUrl = `/${projectId}/objects/${encodeURIComponent(name.trim())}`;

  return (
    <ModalDialog title="Save answers as a dataset" onClose={onClose}>
      <form
        className="modal-body"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <label className="field">
          <span>Dataset name</span>
          <input className="input" value={name} onChange={(e) => setName(e.target.value)} pattern="[\w.\-]+" required />
        </label>
        <label className="row small">
          <input type="checkbox" checked={includeSkipped} onChange={(e) => setIncludeSkipped(e.target.checked)} />
          Include items nobody answered
        </label>
        <p className="muted small">
          One row per item: the call&apos;s inputs and output, the most common answer per question, and every reviewer&apos;s answers.
        </p>
        {save.data && (
          <p role="status">
            Saved {formatInteger(save.data.row_count)} {save.data.row_count === 1 ? 'row' : 'rows'} as{' '}
            <Link to={objectUrl}>{name.trim()}</Link>.
          </p>
        )}
        {save.error && (
          <p className="form-error" role="alert">
            Could not save: {save.error.message}
          </p>
        )}
        <footer className="modal-footer">
          <button type="button" className="button" onClick={onClose}>
            Close
          </button>
          <button type="submit" className="button primary" disabled={save.isPending || !name.trim()}>
            {save.isPending ? 'Saving…' : 'Save dataset'}
          </button>
        </footer>
      </form>
    </ModalDialog>
  );
}
