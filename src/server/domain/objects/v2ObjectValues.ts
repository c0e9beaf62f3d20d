/**
 * The stored values of v2 datasets, scorers, models and evaluations, built the way the
 * reference's object_creation_utils builds them (so they look like SDK-published objects), and
 * the object ids derived from their names.
 *
 * Values are lossless (`Map`s, `PyFloat`s) because user-given parts — dataset rows, model
 * attributes, eval attributes — must hash with `1.0` as written.
 */
import { ObjectId } from '../../../contract/objects.js';
import { BadRequestError } from '../../errors.js';
import { isLosslessObject, type LosslessObject, type LosslessValue } from './losslessJson.js';
import { SOURCE_FILE_NAME } from '../calls/writePlan.js';

/** Placeholder op bodies, as the reference writes them when no code is given. */
export const PLACEHOLDER_SOURCE = {
  op: 'def func(*args, **kwargs):\n    ... # Code-capture unavailable for this op\n',
  scorerSummarize:
    "def summarize(score_rows: list) -> dict | None:\n    '''Default summarize implementation that auto-summarizes score rows.'''\n" +
    '    from weave.flow.scorer import auto_summarize\n    return auto_summarize(score_rows)\n',
  evaluate:
    'import weave\n@weave.op\ndef evaluate(evaluation, model):\n    """Placeholder evaluate function."""\n    return {"status": "not_implemented"}\n',
  predictAndScore:
    'import weave\n@weave.op\ndef predict_and_score(evaluation, example):\n    """Placeholder predict_and_score function."""\n' +
    '    return {"prediction": None, "scores": {}}\n',
  summarize:
    'import weave\n@weave.op\ndef summarize(evaluation_results):\n    """Placeholder summarize function."""\n    return {"summary": "not_implemented"}\n',
  predict:
    'import weave\n@weave.op\ndef predict(model, **inputs):\n    """Placeholder model predict function."""\n    return model.predict(**inputs)\n',
  score:
    'import weave\n@weave.op\ndef score(scorer, **inputs):\n    """Placeholder scorer score function."""\n    return scorer.score(**inputs)\n',
};

/**
 * The reference's make_object_id: spaces and `/` become `_`, `<` and `>` go, lower case; no
 * name means the class name. A result that is still no valid object id is a 400.
 */
export function objectIdFor(name: string | null | undefined, className: string): string {
  const id = name == null ? className : name.replaceAll(' ', '_').replaceAll('/', '_').replace(/[<>]/g, '').toLowerCase();
  if (!ObjectId.safeParse(id).success) {
    throw new BadRequestError(
      `The name ${JSON.stringify(name)} gives the object id ${JSON.stringify(id)}: use 1-128 letters, digits, ".", "_", "-" or spaces`,
    );
  }
  return id;
}

/** `_type`, `_class_name` and `_bases` of a direct `weave.Object` subclass. */
function classed(className: string, fields: [string, LosslessValue | undefined][]): LosslessObject {
  const val: LosslessObject = new Map<string, LosslessValue>([
    ['_type', className],
    ['_class_name', className],
    ['_bases', ['Object', 'BaseModel']],
  ]);
  for (const [k, v] of fields) val.set(k, v ?? null);
  return val;
}

/**
 * Merges user attributes into the top level of a value, as the reference does. Unlike the
 * reference, keys the value already defines (class markers, name, files, ...) are a 400: they
 * would silently turn the object into something else.
 */
function withAttributes(val: LosslessObject, attributes: LosslessValue | undefined, field: string): LosslessObject {
  if (!isLosslessObject(attributes)) return val;
  const clashes = [...attributes.keys()].filter((k) => val.has(k));
  if (clashes.length) throw new BadRequestError(`${field} may not set ${clashes.join(', ')}: those are fields of the object itself`);
  for (const [k, v] of attributes) val.set(k, v);
  return val;
}

export const datasetVal = (req: { name: string | null; description: string | null; tableRef: string }) =>
  classed('Dataset', [
    ['name', req.name ?? 'Dataset'],
    ['description', req.description],
    ['rows', req.tableRef],
  ]);

/**
 * The reference stores bare op digests under `score` and `summarize`, which nothing can
 * resolve; we store op refs, as the Python SDK does for a Scorer's methods.
 */
export const scorerVal = (req: { name: string; description: string | null; scoreRef: string; summarizeRef: string }) =>
  classed('Scorer', [
    ['name', req.name],
    ['description', req.description],
    ['score', req.scoreRef],
    ['summarize', req.summarizeRef],
    ['column_map', null],
  ]);

export const modelVal = (req: { name: string; description: string | null; sourceDigest: string; attributes: LosslessValue | undefined }) =>
  withAttributes(
    classed('Model', [
      ['name', req.name],
      ['description', req.description],
      ['files', new Map([[SOURCE_FILE_NAME, req.sourceDigest]])],
    ]),
    req.attributes,
    'attributes',
  );

/** As build_evaluation_val, with op refs (not bare digests) for evaluate, predict_and_score, summarize. */
export function evaluationVal(req: {
  name: string;
  description: string | null;
  dataset: string;
  scorers: string[];
  trials: number;
  evaluationName: string | null;
  ops: { evaluate: string; predictAndScore: string; summarize: string };
  evalAttributes: LosslessValue | undefined;
}): LosslessObject {
  const val = classed('Evaluation', [
    ['name', req.name],
    ['description', req.description],
    ['dataset', req.dataset],
    ['scorers', req.scorers],
    ['trials', req.trials],
    ['evaluation_name', req.evaluationName],
    ['metadata', null],
    ['preprocess_model_input', null],
    ['on_complete', null],
    ['evaluate', req.ops.evaluate],
    ['predict_and_score', req.ops.predictAndScore],
    ['summarize', req.ops.summarize],
  ]);
  return withAttributes(val, req.evalAttributes, 'eval_attributes');
}
