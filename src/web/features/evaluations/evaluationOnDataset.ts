/**
 * An Evaluation over another dataset version, for "Run evaluation on this version" on a
 * dataset page (docs/datasets.md "Dataset page"): an Evaluation names its dataset in its value,
 * so running it on another version publishes the Evaluation again with only `dataset`
 * changed (a new version, as the SDKs would publish it) unless it already names that version.
 */
import { api } from '../../lib/api.js';
import { objectRef, parseRef } from '../../lib/refs.js';

/** The ref of an Evaluation version whose dataset is `datasetRef`. */
export async function evaluationOnDataset(projectId: string, evaluationRef: string, datasetRef: string): Promise<string> {
  const ref = parseRef(evaluationRef);
  if (ref?.kind !== 'object') throw new Error(`${evaluationRef} is not an object ref`);
  const { obj } = await api.objRead({ project_id: projectId, object_id: ref.name, digest: ref.digest });
  const val = obj.val as Record<string, unknown>;
  if (val.dataset === datasetRef) return evaluationRef;
  const { digest } = await api.objCreate({ obj: { project_id: projectId, object_id: ref.name, val: { ...val, dataset: datasetRef } } });
  return objectRef({ projectId, kind: 'object', name: ref.name, digest });
}
