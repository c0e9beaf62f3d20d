/**
 * A project's model prices: the price each model is charged at now (the project's own or the
 * shipped default), the project's overrides (deletable), the defaults' history on request, and
 * a form to add or override a price from a date on.
 */
import { useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmButton } from '../../components/ui/ConfirmButton.js';
import { formatDateTime } from '../../lib/format.js';
import { PriceForm, type PriceDraft } from './PriceForm.js';
import { formatPerMillion, visiblePrices } from './priceTable.js';
import { pricesQueryOptions, usePriceMutations } from './settingsQueries.js';
import { FormStatus } from '../../components/ui/FormStatus.js';
import { useCan } from '../auth/useCan.js';
import './settings.css';

const BLANK: PriceDraft = { llmId: '', providerId: '', prompt: '', completion: '', effectiveDate: '' };

/** The model prices card. */
export function PricesSection({ projectId }: { projectId: string }) {
  const { data: prices } = useSuspenseQuery(pricesQueryOptions(projectId));
  const { add, remove } = usePriceMutations(projectId);
  const can = useCan(projectId);
  const mayAdd = can('costCreate');
  const mayDelete = can('costPurge').allowed;
  const [all, setAll] = useState(false);
  const [search, setSearch] = useState('');
  const [draft, setDraft] = useState<PriceDraft>(BLANK);
  const rows = visiblePrices(prices, { all, search });
  const now = new Date().toISOString();
  const own = prices.filter((p) => p.pricing_level === 'project').length;
  const models = [...new Set(prices.map((p) => p.llm_id))];

  return (
    <section className="card settings-section" id="prices" aria-labelledby="prices-title">
      <h2 id="prices-title">
        Model prices <span className="muted">· {projectId}</span>
      </h2>
      <p className="muted">
        Calls are priced from <code>summary.usage</code> at the price in force when they started: the project’s own price if it has one,
        else Weft’s default list. Prices are USD per million tokens. Any member of the project may change them.
      </p>
      {mayAdd.allowed ? (
        <PriceForm
          models={models}
          draft={draft}
          onChange={setDraft}
          pending={add.isPending}
          onSubmit={(price) => add.mutate(price, { onSuccess: () => setDraft(BLANK) })}
        />
      ) : (
        <p className="muted small">Changing prices needs the {mayAdd.need} role in this project.</p>
      )}
      <FormStatus error={add.error ?? remove.error} />
      <div className="row settings-filter">
        <input
          className="input"
          type="search"
          aria-label="Search models"
          placeholder="Search models"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        <label className="toggle">
          <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} />
          Show earlier default prices
        </label>
        <div className="spacer" />
        <span className="muted small">
          {own} project price{own === 1 ? '' : 's'} · {models.length} models
        </span>
      </div>
      <div className="settings-table-wrap">
        <table className="simple-table compact" aria-label="Model prices">
          <thead>
            <tr>
              <th>Model</th>
              <th>Provider</th>
              <th className="num">Prompt / 1M</th>
              <th className="num">Completion / 1M</th>
              <th>From</th>
              <th>Source</th>
              <th aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {rows.map((p) => (
              <tr key={p.id} className={p.in_force ? undefined : 'inactive'}>
                <td className="mono">{p.llm_id}</td>
                <td>{p.provider_id}</td>
                <td className="num">{formatPerMillion(p.prompt_token_cost, p.prompt_token_cost_unit)}</td>
                <td className="num">{formatPerMillion(p.completion_token_cost, p.completion_token_cost_unit)}</td>
                <td title={formatDateTime(p.effective_date)}>{p.effective_date.slice(0, 10)}</td>
                <td>
                  {p.pricing_level === 'project' ? <span className="tag">project</span> : <span className="muted">default</span>}
                  {!p.in_force && <span className="price-later">{p.effective_date > now ? 'scheduled' : 'superseded'}</span>}
                </td>
                <td className="right">
                  {p.pricing_level === 'project'
                    ? mayDelete && (
                        <ConfirmButton
                          label="Delete"
                          ariaLabel={`Delete the project price of ${p.llm_id} from ${p.effective_date.slice(0, 10)}`}
                          question="Delete this price?"
                          confirmLabel="Delete"
                          disabled={remove.isPending}
                          onConfirm={() => remove.mutate(p.id)}
                        />
                      )
                    : mayAdd.allowed && (
                        <button
                          type="button"
                          className="button small ghost"
                          aria-label={`Override ${p.llm_id}`}
                          onClick={() =>
                            setDraft({
                              llmId: p.llm_id,
                              providerId: p.provider_id,
                              prompt: String(+(p.prompt_token_cost * 1e6).toFixed(6)),
                              completion: String(+(p.completion_token_cost * 1e6).toFixed(6)),
                              effectiveDate: '',
                            })
                          }
                        >
                          Override
                        </button>
                      )}
                </td>
              </tr>
            ))}
            {rows.length === 0 && (
              <tr>
                <td colSpan={7} className="muted">
                  No model matches “{search}”.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}
