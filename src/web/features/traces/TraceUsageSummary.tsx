/** The trace's tokens and cost in its header; the button opens the totals per model. */
import { useMemo } from 'react';
import type { OutlineModelUsage } from '../../../contract/traceOutline.js';
import { Popover } from '../../components/ui/Popover.js';
import { formatCompact, formatCost } from '../../lib/format.js';
import type { UsageTotals } from './traceUsage.js';
import { UsageTotalsTable } from './UsageTable.js';
import './traceUsage.css';

/**
 * Header button with the trace's token and cost totals (the outline's per-model usage, each
 * model's deepest usage counted once); nothing when no span reported usage.
 */
export function TraceUsageSummary({ models: usage }: { models: readonly OutlineModelUsage[] }) {
  const models = useMemo(
    () =>
      usage.map((m) => ({
        model: m.model,
        requests: m.requests,
        prompt: m.prompt_tokens,
        completion: m.completion_tokens,
        total: m.total_tokens,
        cost: m.cost,
      })),
    [usage],
  );
  if (models.length === 0) return null;
  const total: UsageTotals = { requests: 0, prompt: 0, completion: 0, total: 0, cost: null };
  for (const m of models) {
    total.requests += m.requests;
    total.prompt += m.prompt;
    total.completion += m.completion;
    total.total += m.total;
    if (m.cost !== null) total.cost = (total.cost ?? 0) + m.cost;
  }
  const label = `${formatCompact(total.total)} tokens${total.cost !== null ? ` · ${formatCost(total.cost)}` : ''}`;
  return (
    <Popover label={label} ariaLabel={`Trace usage: ${label}`} className="button ghost small" align="end">
      {() => (
        <div className="menu trace-usage">
          <UsageTotalsTable models={models} total={total} ariaLabel="Trace usage per model" />
          <p className="muted small">Each LLM call counted once; prices as of when each call ran.</p>
        </div>
      )}
    </Popover>
  );
}
