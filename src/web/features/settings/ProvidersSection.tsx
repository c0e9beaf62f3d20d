/**
 * Model providers of a project (Settings): the instance-wide ones (read-only, from the server
 * environment) and the project's own OpenAI-compatible providers — add one with its base URL,
 * key and models (with prices, which go to the cost table), test it, remove it. Keys are
 * write-only: the list shows only their mask.
 */
import { useSuspenseQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ConfirmButton } from '../../components/ui/ConfirmButton.js';
import { providersQueryOptions } from '../../entities/models/modelQueries.js';
import { useProviderMutations } from './settingsQueries.js';
import { FormStatus } from '../../components/ui/FormStatus.js';
import { useCan } from '../auth/useCan.js';
import './settings.css';

/** Parses `name` or `name:prompt$/1M:completion$/1M` per line or comma into provider models. */
export function parseModels(text: string) {
  return text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const [name, prompt, completion] = entry.split(/\s*:\s*/);
      const perToken = (v: string | undefined) => (v && Number.isFinite(Number(v)) ? Number(v) / 1_000_000 : null);
      return { name: name!, prompt_token_cost: perToken(prompt), completion_token_cost: perToken(completion) };
    });
}

/** The model providers card. */
export function ProvidersSection({ projectId }: { projectId: string }) {
  const { data: providers } = useSuspenseQuery(providersQueryOptions(projectId));
  const { create, remove, test } = useProviderMutations(projectId);
  const can = useCan(projectId);
  const mayCreate = can('providerCreate');
  const mayTest = can('providerTest').allowed;
  const mayDelete = can('providerDelete').allowed;
  const [form, setForm] = useState({ name: '', base_url: '', api_key: '', models: '' });
  const [tested, setTested] = useState<Record<string, string>>({});
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(
      { name: form.name.trim(), base_url: form.base_url.trim(), api_key: form.api_key || null, models: parseModels(form.models) },
      { onSuccess: () => setForm({ name: '', base_url: '', api_key: '', models: '' }) },
    );
  };
  const runTest = (id: string) =>
    test.mutate(id, {
      onSuccess: (r) =>
        setTested((t) => ({ ...t, [id]: r.ok ? `Works: ${r.models.length} models (${r.models.slice(0, 5).join(', ')})` : r.error! })),
    });
  const error = create.error ?? remove.error ?? test.error;

  return (
    <section className="card settings-section" id="providers" aria-labelledby="providers-title">
      <h2 id="providers-title">Model providers</h2>
      <p className="muted">
        Any OpenAI-compatible API: OpenAI, Azure OpenAI, Ollama (<code>http://localhost:11434/v1</code>), vLLM, LM Studio, LiteLLM,
        OpenRouter. Models are used as <code>&lt;provider&gt;/&lt;model&gt;</code> in the playground, LLM judges and evaluations. Keys are
        encrypted at rest and never shown again.
      </p>
      {providers.length === 0 ? (
        <p className="muted">No provider yet: the playground, scoring and evaluations need one.</p>
      ) : (
        <table className="simple-table" aria-label="Model providers">
          <thead>
            <tr>
              <th>Name</th>
              <th>Base URL</th>
              <th>Key</th>
              <th>Models</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {providers.map((p) => (
              <tr key={p.id}>
                <td>
                  {p.name} {p.source === 'instance' && <span className="muted">(server)</span>}
                </td>
                <td className="mono">{p.base_url ?? 'set by the operator'}</td>
                <td className="mono">{p.api_key_mask ?? <span className="muted">none</span>}</td>
                <td>{p.discovers_models ? <span className="muted">from GET /models</span> : p.models.map((m) => m.name).join(', ')}</td>
                <td>
                  <div className="row">
                    {mayTest && (
                      <button type="button" className="button small" onClick={() => runTest(p.id)} aria-label={`Test provider ${p.name}`}>
                        Test
                      </button>
                    )}
                    {mayDelete && p.source === 'project' && (
                      <ConfirmButton
                        label="Remove"
                        ariaLabel={`Remove provider ${p.name}`}
                        question={`Remove ${p.name} and the prices it added?`}
                        confirmLabel="Remove"
                        onConfirm={() => remove.mutate(p.id)}
                      />
                    )}
                  </div>
                  {tested[p.id] && (
                    <p className="muted" role="status">
                      {tested[p.id]}
                    </p>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {!mayCreate.allowed ? (
        <p className="muted small">Adding providers needs the {mayCreate.need} role in this project.</p>
      ) : (
        <form className="settings-form provider-form" onSubmit={submit} aria-label="Add a model provider">
          <input
            className="input"
            aria-label="Provider name"
            placeholder="Name, e.g. ollama"
            required
            value={form.name}
            onChange={(e) => setForm({ ...form, name: e.target.value })}
          />
          <input
            className="input"
            aria-label="Base URL"
            placeholder="http://localhost:11434/v1"
            required
            value={form.base_url}
            onChange={(e) => setForm({ ...form, base_url: e.target.value })}
          />
          <input
            className="input"
            type="password"
            aria-label="API key"
            placeholder="API key (optional for local servers)"
            autoComplete="off"
            value={form.api_key}
            onChange={(e) => setForm({ ...form, api_key: e.target.value })}
          />
          <input
            className="input"
            aria-label="Models"
            placeholder="Models, e.g. llama3.2, gpt-4o-mini:0.15:0.6 (USD per 1M tokens); empty = ask the provider"
            value={form.models}
            onChange={(e) => setForm({ ...form, models: e.target.value })}
          />
          <button type="submit" className="button primary" disabled={create.isPending}>
            Add provider
          </button>
        </form>
      )}
      <FormStatus error={error} />
    </section>
  );
}
