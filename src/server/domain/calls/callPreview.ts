/**
 * `/weft/call/preview` and `/weft/call/payload_part`: a call with bounded payloads, and one part
 * of a payload by path (docs/trace-outline.md "Payloads in parts"). Both read the call through
 * the store's one call read, so they follow however payloads are stored; the cost left on the
 * server is that read's parse of the stored JSON, and the answer stays small.
 */
import type { CallPreviewReq, CallPreviewRes, PayloadPartReq, PayloadPartRes } from '../../../contract/callPayload.js';
import { NotFoundError } from '../../errors.js';
import type { Store } from '../../store/Store.js';
import { addCallExtras } from './callExtras.js';
import { withWeaveSummary } from './calls.js';
import { partOf, previewFields, valueAt } from './payloadPreview.js';

/** The call with inputs, output and attributes cut to one shared budget (inputs first). */
export async function callPreview(store: Store, req: CallPreviewReq): Promise<CallPreviewRes> {
  const call = await store.calls.readCall({ projectId: req.project_id, id: req.id });
  if (!call) return { call: null, cuts: [] };
  const [full] = await addCallExtras(store, req.project_id, [withWeaveSummary(call)], {
    includeCosts: req.include_costs ?? false,
    includeFeedback: false,
  });
  const { values, cuts } = previewFields([
    ['inputs', full!.inputs],
    ['output', full!.output],
    ['attributes', full!.attributes],
  ]);
  return {
    call: {
      ...full!,
      inputs: values.get('inputs') as Record<string, unknown>,
      output: values.get('output'),
      attributes: values.get('attributes') as Record<string, unknown>,
    },
    cuts,
  };
}

/** One part of a payload; 404 when the call or the path does not exist. */
export async function callPayloadPart(store: Store, req: PayloadPartReq): Promise<PayloadPartRes> {
  const call = await store.calls.readCall({ projectId: req.project_id, id: req.id, columns: [req.field] });
  if (!call) throw new NotFoundError(`Call ${req.id} not found`);
  const value = valueAt(call[req.field], req.path);
  if (value === undefined) throw new NotFoundError(`No value at ${[req.field, ...req.path].join('.')} in call ${req.id}`);
  return partOf(value, [req.field, ...req.path], req.offset, req.limit);
}
