/** Call writes in store terms, shared by the calls, threads, projects and multi-writer suites. */
import type { CallEndWrite, CallStartWrite } from '../Store.js';

export const T0 = Date.UTC(2024, 0, 1) * 1000;
export const SECOND = 1_000_000;

export function startWrite(projectId: string, id: string, over: Partial<CallStartWrite> = {}): CallStartWrite {
  return {
    kind: 'start',
    projectId,
    id,
    traceId: over.parentId ? 'trace' : id,
    parentId: null,
    threadId: null,
    turnId: null,
    opName: 'op',
    displayName: null,
    startedAt: T0,
    attributesJson: '{}',
    inputsJson: '{"q":"hi"}',
    otelDumpJson: null,
    inputRefs: [],
    wbUserId: 'alice',
    wbRunId: null,
    wbRunStep: null,
    ...over,
  };
}

export function endWrite(projectId: string, id: string, over: Partial<CallEndWrite> = {}): CallEndWrite {
  return {
    kind: 'end',
    projectId,
    id,
    endedAt: T0 + SECOND,
    exception: null,
    outputJson: '"ok"',
    summaryJson: '{}',
    outputRefs: [],
    wbRunStepEnd: null,
    ...over,
  };
}

/** A usage summary with the given tokens for one model. */
export const usageSummary = (model: string, prompt: number, completion: number): string =>
  JSON.stringify({
    usage: { [model]: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, requests: 1 } },
  });
