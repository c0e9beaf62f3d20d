/**
 * Reading the v2 object kinds (docs/api/evaluations.md §2.1): which stored versions belong
 * to a kind, their wire shapes, lists, single versions and deletes. Objects published by the
 * SDKs read the same as ones created through the v2 APIs: a TS-SDK Evaluation keeps its
 * `predictAndScore` op under that name, which we read as `predict_and_score_op`.
 *
 * Decisions: a version is readable and deletable only under its own kind (an op under /ops,
 * a Dataset-based object under /datasets, ...), else 404, so one kind's route cannot touch
 * another's objects; code and source files that cannot be read come back as "".
 */
import type { DatasetReadRes, EvaluationReadRes, ModelReadRes, OpReadRes, ScorerReadRes } from '../../../contract/v2Objects.js';
import { NotFoundError } from '../../errors.js';
import type { ObjectRecord, Store } from '../../store/Store.js';
import { formatMicros } from '../../core/datetime.js';
import { deleteObjects, readLiveObject } from './objects.js';
import { SOURCE_FILE_NAME } from '../calls/writePlan.js';

export type V2Kind = 'op' | 'dataset' | 'scorer' | 'model' | 'evaluation';

interface ReadShapes {
  op: OpReadRes;
  dataset: DatasetReadRes;
  scorer: ScorerReadRes;
  model: ModelReadRes;
  evaluation: EvaluationReadRes;
}

/** The base class each object kind lists by (ops list by kind instead). */
export const KIND_CLASS = { dataset: 'Dataset', scorer: 'Scorer', model: 'Model', evaluation: 'Evaluation' } as const;

/** Keys of a model's value that are not its attributes. */
const MODEL_FIELDS = new Set(['_type', '_class_name', '_bases', 'name', 'description', 'files']);

const isOfKind = (r: ObjectRecord, kind: V2Kind): boolean =>
  kind === 'op' ? r.kind === 'op' : r.kind !== 'op' && r.baseObjectClass === KIND_CLASS[kind];

type Val = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The UTF-8 text of a stored file, or null when there is no such file. */
async function readText(store: Store, projectId: string, digest: unknown): Promise<string | null> {
  if (typeof digest !== 'string' || (await store.files.fileSize({ projectId, digest })) === null) return null;
  const parts: Uint8Array[] = [];
  for await (const chunk of store.files.readFile({ projectId, digest })) parts.push(chunk);
  return Buffer.concat(parts).toString('utf8');
}

const sourceOf = (store: Store, projectId: string, val: Val) =>
  readText(store, projectId, (val.files as Val | undefined)?.[SOURCE_FILE_NAME]).then((t) => t ?? '');

/** The wire shape of a version read under `kind`. */
async function toRead<K extends V2Kind>(store: Store, kind: K, r: ObjectRecord): Promise<ReadShapes[K]> {
  const val = (r.valJson ? JSON.parse(r.valJson) : {}) as Val;
  const base = { object_id: r.objectId, digest: r.digest, version_index: r.versionIndex, created_at: formatMicros(r.createdAt) };
  const named = { ...base, name: str(val.name) ?? r.objectId, description: str(val.description) };
  const shapes: { [P in V2Kind]: () => Promise<ReadShapes[P]> } = {
    op: async () => ({ ...base, code: val._type === 'CustomWeaveType' ? await sourceOf(store, r.projectId, val) : '' }),
    dataset: async () => ({ ...named, rows: str(val.rows) ?? '' }),
    scorer: async () => ({ ...named, score_op: str(val.score) }),
    model: async () => {
      const attributes = Object.fromEntries(Object.entries(val).filter(([k]) => !MODEL_FIELDS.has(k)));
      return {
        ...named,
        source_code: await sourceOf(store, r.projectId, val),
        attributes: Object.keys(attributes).length ? attributes : null,
      };
    },
    evaluation: async () => ({
      ...named,
      dataset: str(val.dataset) ?? '',
      scorers: Array.isArray(val.scorers) ? val.scorers.filter((s): s is string => typeof s === 'string') : [],
      trials: typeof val.trials === 'number' ? val.trials : 1,
      evaluation_name: str(val.evaluation_name),
      evaluate_op: str(val.evaluate),
      predict_and_score_op: str(val.predict_and_score) ?? str(val.predictAndScore),
      summarize_op: str(val.summarize),
    }),
  };
  return shapes[kind]() as Promise<ReadShapes[K]>;
}

/**
 * Every live version of the kind, paged. Ops come by object_id, newest version first, as the
 * reference orders them; creation time stands in for the version index, which the store does
 * not sort by (they agree unless a deleted version was revived).
 */
export async function* listV2<K extends V2Kind>(
  store: Store,
  kind: K,
  req: { projectId: string; limit?: number | null; offset?: number | null },
): AsyncIterable<ReadShapes[K]> {
  const records = await store.objects.queryObjects({
    projectId: req.projectId,
    filter: kind === 'op' ? { is_op: true } : { is_op: false, base_object_classes: [KIND_CLASS[kind as Exclude<V2Kind, 'op'>]] },
    sortBy:
      kind === 'op'
        ? [
            { field: 'object_id', direction: 'asc' },
            { field: 'created_at', direction: 'desc' },
          ]
        : null,
    limit: req.limit,
    offset: req.offset,
  });
  for (const r of records) yield await toRead(store, kind, r);
}

const kindNotFound = (kind: V2Kind, objectId: string, version: string) =>
  new NotFoundError(`${kind === 'op' ? 'Op' : KIND_CLASS[kind]} ${objectId}:${version} not found`);

/** One version (digest, `latest` or `v<N>`); 404 when missing, deleted or of another kind. */
export async function readV2<K extends V2Kind>(
  store: Store,
  kind: K,
  req: { projectId: string; objectId: string; digest: string },
): Promise<ReadShapes[K]> {
  const record = await readLiveObject(store, { projectId: req.projectId, objectId: req.objectId, version: req.digest });
  if (!isOfKind(record, kind)) throw kindNotFound(kind, req.objectId, req.digest);
  return toRead(store, kind, record);
}

/** Deletes the listed versions (or all); 404 as obj/delete, or when the object is of another kind. */
export async function deleteV2(
  store: Store,
  kind: V2Kind,
  req: { projectId: string; objectId: string; digests?: string[] | null; now: number },
): Promise<number> {
  const latest = await store.objects.readObject({
    projectId: req.projectId,
    objectId: req.objectId,
    version: { latest: true },
    metadataOnly: true,
  });
  if (latest && !isOfKind(latest, kind)) throw kindNotFound(kind, req.objectId, 'latest');
  return (await deleteObjects(store, { projectId: req.projectId, objectId: req.objectId, versions: req.digests ?? null, now: req.now }))
    .num_deleted;
}
