/**
 * What `include_feedback` and `include_costs` add to calls on read: `summary.weave.feedback`
 * (the feedback rows about each call) and `summary.weave.costs` (its usage priced). Both are
 * looked up once per page of calls, never once per call.
 *
 * As in the reference (`hydrate_calls_with_feedback`), every call read with include_feedback
 * carries a list, empty when nobody gave feedback; `costs` is only set when at least one model
 * of the call's usage has a price.
 */
import type { CallSchema } from '../../../contract/calls.js';
import type { Store } from '../../store/Store.js';
import { costsForUsage, type Usage } from '../stats/costs.js';
import { parseIsoToMicros } from '../../core/datetime.js';

export interface CallExtras {
  includeFeedback: boolean;
  includeCosts: boolean;
  /** `include_usernames`: `wb_username` beside each call's `wb_user_id`. */
  includeUsernames?: boolean;
}

const wantsAny = (e: CallExtras) => e.includeFeedback || e.includeCosts || Boolean(e.includeUsernames);

/**
 * The usernames behind a page's `wb_user_id`s. Weft writes the authenticated username as
 * `wb_user_id`, so resolving is a lookup in the accounts store: an id with no account (a user
 * since removed, or ids written by another server) gets no `wb_username`, as the reference
 * leaves it unset when its user service does not know the id.
 */
async function usernamesOf(store: Store, calls: CallSchema[]): Promise<Map<string, string>> {
  const ids = [...new Set(calls.map((c) => c.wb_user_id).filter((id): id is string => Boolean(id)))];
  const users = await Promise.all(ids.map((id) => store.accounts.getUser(id)));
  return new Map(ids.flatMap((id, i) => (users[i] ? [[id, users[i]!.username] as [string, string]] : [])));
}

/** The ref feedback uses for a call. */
export const callRef = (projectId: string, callId: string): string => `weave:///${projectId}/call/${callId}`;

const usageOf = (call: CallSchema): Record<string, Usage> => {
  const usage = (call.summary as { usage?: unknown } | null)?.usage;
  return usage && typeof usage === 'object' && !Array.isArray(usage) ? (usage as Record<string, Usage>) : {};
};

/** Sets keys under `summary.weave` of a call, keeping what is there. */
function withWeaveKeys(call: CallSchema, keys: Record<string, unknown>): CallSchema {
  // Object.assign, not spreads: see withWeaveSummary (domain/calls/calls.ts).
  const summary: Record<string, unknown> = Object.assign({}, call.summary);
  summary.weave = Object.assign({}, summary.weave as Record<string, unknown> | undefined, keys);
  return { ...call, summary };
}

/** The page of calls (one project) with feedback and/or costs attached. */
export async function addCallExtras(store: Store, projectId: string, calls: CallSchema[], extras: CallExtras): Promise<CallSchema[]> {
  if (calls.length === 0 || !wantsAny(extras)) return calls;
  const usernames = extras.includeUsernames ? await usernamesOf(store, calls) : null;
  const feedbackByRef = new Map<string, unknown[]>();
  if (extras.includeFeedback) {
    const rows = await store.feedback.feedbackForRefs({ projectId, weaveRefs: calls.map((c) => callRef(projectId, c.id)) });
    for (const row of rows) feedbackByRef.set(row.weave_ref, [...(feedbackByRef.get(row.weave_ref) ?? []), row]);
  }
  const llmIds = extras.includeCosts ? [...new Set(calls.flatMap((c) => Object.keys(usageOf(c))))] : [];
  const prices = llmIds.length ? await store.costs.pricesFor({ projectId, llmIds }) : [];
  return calls.map((original) => {
    const username = original.wb_user_id ? usernames?.get(original.wb_user_id) : undefined;
    const call = username === undefined ? original : { ...original, wb_username: username };
    const keys: Record<string, unknown> = {};
    if (extras.includeFeedback) keys.feedback = feedbackByRef.get(callRef(projectId, call.id)) ?? [];
    if (prices.length) {
      const startedAt = parseIsoToMicros(call.started_at);
      const costs = startedAt === null ? {} : costsForUsage({ usage: usageOf(call), prices, startedAt, projectId });
      if (Object.keys(costs).length) keys.costs = costs;
    }
    return Object.keys(keys).length ? withWeaveKeys(call, keys) : call;
  });
}

/** Page size for enriching a stream of calls: one feedback and one price lookup per page. */
const PAGE = 200;

/** Enriches a stream page by page, keeping its order and streaming nature. */
export async function* addCallExtrasToStream(
  store: Store,
  projectId: string,
  calls: AsyncIterable<CallSchema>,
  extras: CallExtras,
): AsyncIterable<CallSchema> {
  if (!wantsAny(extras)) {
    yield* calls;
    return;
  }
  let page: CallSchema[] = [];
  for await (const call of calls) {
    page.push(call);
    if (page.length >= PAGE) {
      yield* await addCallExtras(store, projectId, page, extras);
      page = [];
    }
  }
  yield* await addCallExtras(store, projectId, page, extras);
}
