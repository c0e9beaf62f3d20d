/**
 * One payload of the selected call (inputs, output or attributes) from its preview, grown part by
 * part as the viewer asks (docs/trace-outline.md "Payloads in parts"): "show all" on a cut
 * string or "show more" on a cut list reads the next part from `/weft/call/payload_part`, so a
 * 20 MB payload is never fetched or parsed whole.
 */
import { useCallback, useMemo, useRef, useState } from 'react';
import type { PayloadCut, PayloadField } from '../../../contract/callPayload.js';
import { JsonViewer } from '../../components/json/JsonViewer.js';
import { appendAt, loadedLength, pathOfRow, rowIdOf, valueAtPath } from '../../components/json/jsonParts.js';
import { api } from '../../lib/api.js';

/** Characters of a string one part adds (the viewer shows 200,000 at a time). */
const STRING_PART = 200_000;

/** The cuts of one field, by the viewer's row ids. */
export function cutsOf(cuts: readonly PayloadCut[], field: PayloadField): Map<string, number> {
  const out = new Map<string, number>();
  for (const c of cuts) if (c.path[0] === field) out.set(rowIdOf(c.path.slice(1)), c.length);
  return out;
}

/** Payload viewer over a preview; mount it with a key per call and field. */
export function PayloadViewer(props: {
  projectId: string;
  callId: string;
  field: PayloadField;
  value: unknown;
  cuts: readonly PayloadCut[];
  ariaLabel: string;
}) {
  const { projectId, callId, field } = props;
  const [state, setState] = useState(() => ({ value: props.value, cuts: cutsOf(props.cuts, field) }));
  const [error, setError] = useState<string | null>(null);
  const loading = useRef(new Set<string>());
  // The latest value for the handler below, which runs after awaits.
  const latest = useRef(state);
  latest.current = state;

  const onLoadMore = useCallback(
    (rowId: string) => {
      const { value, cuts } = latest.current;
      const total = cuts.get(rowId);
      const path = pathOfRow(value, rowId);
      if (total === undefined || path === null || loading.current.has(rowId)) return;
      const offset = loadedLength(valueAtPath(value, path));
      if (offset >= total) return;
      loading.current.add(rowId);
      const limit = typeof valueAtPath(value, path) === 'string' ? STRING_PART : undefined;
      api
        .callPayloadPart({ project_id: projectId, id: callId, field, path, offset, limit })
        .then((part) => {
          setState((prev) => {
            const cutsNext = new Map(prev.cuts);
            for (const [id, length] of cutsOf(part.cuts, field)) cutsNext.set(id, length);
            return { value: appendAt(prev.value, path, part.value), cuts: cutsNext };
          });
        })
        .catch((err: unknown) => setError(err instanceof Error ? err.message : String(err)))
        .finally(() => loading.current.delete(rowId));
    },
    [projectId, callId, field],
  );
  const cuts = useMemo(() => (state.cuts.size ? state.cuts : undefined), [state.cuts]);

  return (
    <>
      <JsonViewer value={state.value} ariaLabel={props.ariaLabel} cuts={cuts} onLoadMore={onLoadMore} />
      {error && (
        <p className="muted small" role="alert">
          Could not load more: {error}
        </p>
      )}
    </>
  );
}
