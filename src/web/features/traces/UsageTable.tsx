/** Tokens and cost per model, for one call or (with a total row) for a whole trace. */
import { formatCost, formatInteger } from '../../lib/format.js';
import type { Call } from '../../entities/calls/callFields.js';
import { traceUsage, type UsageTotals } from './traceUsage.js';

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

/** The per-model table; `total` adds an "All models" footer when there is more than one model. */
export function UsageTotalsTable({
  models,
  total,
  ariaLabel,
}: {
  models: (UsageTotals & { model: string })[];
  total?: UsageTotals;
  ariaLabel?: string;
}) {
  return (
    <table className="simple-table compact" aria-label={ariaLabel}>
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
        {models.map((m) => (
          <Row key={m.model} label={m.model} t={m} />
        ))}
      </tbody>
      {total && models.length > 1 && (
        <tfoot>
          <Row label="All models" t={total} strong />
        </tfoot>
      )}
    </table>
  );
}

/** One call's own usage (the server's `summary.weave.model_tokens`, costs from `summary.weave.costs`). */
export function UsageTable({ call }: { call: Call }) {
  return <UsageTotalsTable models={traceUsage([call]).models} />;
}
