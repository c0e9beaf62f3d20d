/** The trace's tokens and cost in its header; the button opens the totals per model. */
import { useMemo } from 'react';
import { Popover } from '../../components/ui/Popover.js';
import { formatCompact, formatCost } from '../../lib/format.js';
import type { Call } from '../../entities/calls/callFields.js';
import { traceUsage } from './traceUsage.js';
import { UsageTotalsTable } from './UsageTable.js';
import './traceUsage.css';

/** Header button with the trace's token and cost totals; nothing when no call reported usage. */
export function TraceUsageSummary({ calls }: { calls: readonly Call[] }) {
  const usage = useMemo(() => traceUsage(calls), [calls]);
  if (usage.models.length === 0) return null;
  const { total } = usage;
  const label = `${formatCompact(total.total)} tokens${total.cost !== null ? ` · ${formatCost(total.cost)}` : ''}`;
  return (
    <Popover label={label} ariaLabel={`Trace usage: ${label}`} className="button ghost small" align="end">
      {() => (
        <div className="menu trace-usage">
          <UsageTotalsTable models={usage.models} total={total} ariaLabel="Trace usage per model" />
          <p className="muted small">Each LLM call counted once, from the calls loaded; prices as of when each call ran.</p>
        </div>
      )}
    </Popover>
  );
}
