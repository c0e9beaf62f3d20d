/**
 * Your API keys: create one (shown once, with a copy button), see when each was made, and
 * revoke one after confirming. A revoked key fails from the very next request.
 */
import { useSuspenseQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ConfirmButton } from '../../components/ui/ConfirmButton.js';
import { CopyButton } from '../../components/ui/CopyButton.js';
import { formatDateTime, formatRelative } from '../../lib/format.js';
import { apiKeysQueryOptions, useApiKeyMutations } from './settingsQueries.js';
import { FormStatus } from '../../components/ui/FormStatus.js';
import './settings.css';

/** The API keys card. */
export function ApiKeysSection({ username }: { username: string }) {
  const { data: keys } = useSuspenseQuery(apiKeysQueryOptions());
  const { create, revoke } = useApiKeyMutations();
  const [name, setName] = useState('');
  const [created, setCreated] = useState<{ key: string; name: string } | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(name.trim(), {
      onSuccess: (res) => {
        setCreated({ key: res.key, name: res.api_key.name });
        setName('');
      },
    });
  };
  const error = create.error ?? revoke.error;

  return (
    <section className="card settings-section" id="api-keys" aria-labelledby="api-keys-title">
      <h2 id="api-keys-title">API keys</h2>
      <p className="muted">
        Keys let SDKs and scripts log in as <strong>{username}</strong>: they send <code>api:&lt;key&gt;</code> as HTTP Basic credentials or{' '}
        <code>Authorization: Bearer &lt;key&gt;</code>, or set <code>WANDB_API_KEY</code>.
      </p>
      {created && (
        <div className="new-key" role="status" aria-label="New API key">
          <p>
            <strong>Copy your new key{created.name ? ` “${created.name}”` : ''} now.</strong> You won’t see it again: only a hash of it is
            stored.
          </p>
          <div className="row">
            <code className="new-key-value" aria-label="API key">
              {created.key}
            </code>
            <CopyButton text={created.key} label="Copy key" />
            <button type="button" className="button small" onClick={() => setCreated(null)}>
              Done
            </button>
          </div>
        </div>
      )}
      <form className="row settings-form" onSubmit={submit}>
        <input
          className="input"
          aria-label="Key name"
          placeholder="Name, e.g. laptop or CI"
          maxLength={100}
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <button type="submit" className="button primary" disabled={create.isPending}>
          Create key
        </button>
      </form>
      <FormStatus error={error} />
      {keys.length === 0 ? (
        <p className="muted">No API keys yet.</p>
      ) : (
        <table className="simple-table" aria-label="Your API keys">
          <thead>
            <tr>
              <th>Name</th>
              <th>Key</th>
              <th>Created</th>
              <th>Status</th>
              <th aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {[...keys].reverse().map((k) => (
              <tr key={k.key_id} className={k.revoked_at ? 'revoked' : undefined}>
                <td>{k.name || <span className="muted">unnamed</span>}</td>
                <td className="mono">{k.key_id}…</td>
                <td title={formatDateTime(k.created_at)}>{formatRelative(k.created_at)}</td>
                <td>
                  {k.revoked_at ? <span title={formatDateTime(k.revoked_at)}>Revoked {formatRelative(k.revoked_at)}</span> : 'Active'}
                </td>
                <td className="right">
                  {!k.revoked_at && (
                    <ConfirmButton
                      label="Revoke"
                      ariaLabel={`Revoke key ${k.name || k.key_id}`}
                      question="Clients using it stop working at once."
                      confirmLabel="Revoke key"
                      disabled={revoke.isPending}
                      onConfirm={() => revoke.mutate(k.key_id)}
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
