/** Add or override a project price: model, provider, USD per million prompt and completion tokens, from a date. */
import { useId, type FormEvent } from 'react';
import type { PriceInput } from './settingsQueries.js';
import './settings.css';

/** The form's fields as typed. */
export interface PriceDraft {
  llmId: string;
  providerId: string;
  prompt: string;
  completion: string;
  /** `YYYY-MM-DD` or empty (from now on). */
  effectiveDate: string;
}

const price = (text: string): number | null =>
  text.trim() !== '' && Number.isFinite(Number(text)) && Number(text) >= 0 ? Number(text) : null;

/** The price form; `models` feeds the model suggestions. */
export function PriceForm({
  models,
  draft,
  onChange,
  onSubmit,
  pending,
}: {
  models: string[];
  draft: PriceDraft;
  onChange: (d: PriceDraft) => void;
  onSubmit: (p: PriceInput) => void;
  pending: boolean;
}) {
  const listId = useId();
  const prompt = price(draft.prompt);
  const completion = price(draft.completion);
  const valid = draft.llmId.trim() !== '' && prompt !== null && completion !== null;
  const set = (patch: Partial<PriceDraft>) => onChange({ ...draft, ...patch });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!valid) return;
    onSubmit({
      llmId: draft.llmId.trim(),
      providerId: draft.providerId.trim(),
      promptPerMillion: prompt,
      completionPerMillion: completion,
      effectiveDate: draft.effectiveDate,
    });
  };

  return (
    <form className="settings-grid-form price-form" onSubmit={submit} aria-label="Add a price">
      <h3>Add or override a price</h3>
      <label className="field">
        <span>Model</span>
        <input
          className="input mono"
          list={listId}
          placeholder="gpt-4o"
          value={draft.llmId}
          onChange={(e) => set({ llmId: e.target.value })}
        />
        <datalist id={listId}>
          {models.map((m) => (
            <option key={m} value={m} />
          ))}
        </datalist>
      </label>
      <label className="field">
        <span>Provider</span>
        <input className="input" placeholder="default" value={draft.providerId} onChange={(e) => set({ providerId: e.target.value })} />
      </label>
      <label className="field">
        <span>Prompt $ / 1M</span>
        <input
          className="input"
          inputMode="decimal"
          placeholder="2.50"
          aria-invalid={draft.prompt !== '' && prompt === null}
          value={draft.prompt}
          onChange={(e) => set({ prompt: e.target.value })}
        />
      </label>
      <label className="field">
        <span>Completion $ / 1M</span>
        <input
          className="input"
          inputMode="decimal"
          placeholder="10.00"
          aria-invalid={draft.completion !== '' && completion === null}
          value={draft.completion}
          onChange={(e) => set({ completion: e.target.value })}
        />
      </label>
      <label className="field">
        <span>From</span>
        <input
          className="input"
          type="date"
          aria-describedby={`${listId}-from`}
          value={draft.effectiveDate}
          onChange={(e) => set({ effectiveDate: e.target.value })}
        />
      </label>
      <button type="submit" className="button primary" disabled={!valid || pending}>
        Add price
      </button>
      <p id={`${listId}-from`} className="muted small price-form-hint">
        No date: from now on. A date applies from its start (UTC) and reprices calls made since.
      </p>
    </form>
  );
}
