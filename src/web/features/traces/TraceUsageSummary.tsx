/** The trace's tokens and cost in its header; the button opens the totals per model. */
import { useMemo } from 'react';
import { Popover } from '../../components/ui/Popover.js';
import { formatCompact, formatCost, formatInteger } from '../../lib/format.js';
import type { Call } from '../calls/callFields.js';
import { traceUsage, type UsageTotals } from './traceUsage.js';
import './traceUsage.css';

function Row({ label, t, strong = false }: { label: string; t: UsageTotals; strong?: boolean }) {
  const Cell = strong ? 'th' : 'td';
  return (
    <tr>
      <Cell className={strong ? undefined : 'mono'} scope="row">
        {label}
      </Cell>
      <Cell className="num">{formatInteger(t.requests)}</Cell>
      <Cell className="num">{formatInteger(t.prompt)}</Cell>
      <Cell className="num">{formatInteger(t.completion)}</Cell>
      <Cell className="num">{formatInteger(t.total)}</Cell>
      <Cell className="num">{t.cost === null ? '—' : formatCost(t.cost)}</Cell>
    </tr>
  );
}

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
          <table className="simple-table compact" aria-label="Trace usage per model">
            <thead>
              <tr>
                <th>Model</th>
                <th className="num">Requests</th>
                <th className="num">Prompt</th>
                <th className="num">Completion</th>
                <th className="num">Total</th>
                <th className="num">Cost</th>
              </tr>
            </thead>
            <tbody>
              {usage.models.map((m) => (
                <Row key={m.model} label={m.model} t={m} />
              ))}
            </tbody>
            {usage.models.length > 1 && (
              <tfoot>
                <Row label="All models" t={total} strong />
              </tfoot>
            )}
          </table>
          <p className="muted small">Each LLM call counted once, from the calls loaded; prices as of when each call ran.</p>
        </div>
      )}
    </Popover>
  );
}
