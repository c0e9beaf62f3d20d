/** Tokens and cost per model, from `summary.usage` and `summary.weave.costs`. */
import { formatCost, formatInteger } from '../../lib/format.js';
import type { Call } from '../calls/callFields.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const n = (v: unknown) => (typeof v === 'number' ? v : 0);

/** Usage table. */
export function UsageTable({ call }: { call: Call }) {
  const usage = isObj(call.summary?.usage) ? call.summary.usage : {};
  const weave = isObj(call.summary?.weave) ? call.summary.weave : {};
  const costs = isObj(weave.costs) ? weave.costs : {};
  return (
    <table className="simple-table compact">
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
        {Object.entries(usage).map(([model, u]) => {
          const x = isObj(u) ? u : {};
          const prompt = n(x.prompt_tokens) + n(x.input_tokens);
          const completion = n(x.completion_tokens) + n(x.output_tokens);
          const c = isObj(costs[model]) ? (costs[model] as Obj) : null;
          return (
            <tr key={model}>
              <td className="mono">{model}</td>
              <td className="num">{formatInteger(n(x.requests))}</td>
              <td className="num">{formatInteger(prompt)}</td>
              <td className="num">{formatInteger(completion)}</td>
              <td className="num">{formatInteger(n(x.total_tokens) || prompt + completion)}</td>
              <td className="num">{c ? formatCost(n(c.prompt_tokens_total_cost) + n(c.completion_tokens_total_cost)) : '—'}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
