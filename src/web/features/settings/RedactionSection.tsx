/**
 * Redaction rules of a project (Settings): the rules in force (the project's and its entity's),
 * a form to add a key name, a built-in or a regular expression, with a box that tries the rule on
 * sample text here in the browser (the server's own code, from the contract), and removal.
 * docs/security/redaction.md.
 */
import { useSuspenseQuery } from '@tanstack/react-query';
import { useMemo, useState, type FormEvent } from 'react';
import { BUILTIN_NAMES, Redaction, shapeProblem, type RedactionRuleSpec } from '../../../contract/redaction.js';
import { ConfirmButton } from '../../components/ui/ConfirmButton.js';
import { FormStatus } from '../../components/ui/FormStatus.js';
import { redactionQueryOptions, useRedactionMutations } from './redactionQueries.js';
import './settings.css';

type Kind = 'key' | 'builtin' | 'regex';
const SAMPLE_LIMIT = 2000;

/** The sample with the rule applied, or why it cannot be tried. */
function tryRule(kind: Kind, value: string, label: string, sample: string): string {
  if (!value) return '';
  if (kind === 'regex') {
    try {
      new RegExp(value);
    } catch (err) {
      return `Not a valid regular expression: ${(err as Error).message}`;
    }
    const shape = shapeProblem(value);
    if (shape) return `The server will refuse this pattern: ${shape}.`;
  }
  const spec: RedactionRuleSpec = { kind, value: kind === 'key' ? value.toLowerCase() : value, label: label || 'custom' };
  const r = new Redaction([spec]);
  const text = sample.slice(0, SAMPLE_LIMIT);
  try {
    // JSON samples show key rules at work; any other text is one string.
    const parsed: unknown = JSON.parse(text);
    return JSON.stringify(r.redactValue(parsed), null, 2);
  } catch {
    return r.redactString(text);
  }
}

export function RedactionSection({ projectId }: { projectId: string }) {
  const { data: rules } = useSuspenseQuery(redactionQueryOptions(projectId));
  const { add, remove } = useRedactionMutations(projectId);
  const [kind, setKind] = useState<Kind>('builtin');
  const [value, setValue] = useState<string>('email');
  const [label, setLabel] = useState('');
  const [sample, setSample] = useState(
    '{"user": "Reach me at jane.doe@example.com", "Authorization": "Bearer sk-proj-Abc123Def456Ghi789Jkl012"}',
  );
  const result = useMemo(() => tryRule(kind, value.trim(), label.trim(), sample), [kind, value, label, sample]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const v = value.trim();
    add.mutate(kind === 'key' ? { key: v } : { pattern: v, ...(kind === 'regex' && label.trim() ? { label: label.trim() } : {}) }, {
      onSuccess: () => setValue(kind === 'builtin' ? 'email' : ''),
    });
  };

  return (
    <section className="card settings-section" id="redaction" aria-labelledby="redaction-title">
      <h2 id="redaction-title">Redaction</h2>
      <p className="muted">
        Secrets and personal data matched by these rules are replaced by a marker such as <code>[redacted:email]</code> before calls,
        feedback and dataset rows are stored. <strong>A rule applies to new data only</strong>: what is already stored is not changed. Rules
        of the entity apply to every project in it.
      </p>
      {rules.length === 0 ? (
        <p className="muted">No redaction rules: data is stored as sent.</p>
      ) : (
        <table className="simple-table" aria-label="Redaction rules">
          <thead>
            <tr>
              <th>Rule</th>
              <th>Replaced by</th>
              <th>From</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {rules.map((r) => (
              <tr key={r.id}>
                <td className="mono">
                  {r.kind === 'key' ? 'key ' : r.kind === 'regex' ? 'pattern ' : ''}
                  {r.value}
                </td>
                <td className="mono">{r.marker}</td>
                <td>{r.source === 'entity' ? `entity ${r.scope}` : 'this project'}</td>
                <td>
                  <ConfirmButton
                    label="Remove"
                    ariaLabel={`Remove redaction rule ${r.value}`}
                    question={`Remove the rule ${r.value}? Data stored while it applied keeps its markers.`}
                    confirmLabel="Remove"
                    onConfirm={() => remove.mutate(r.id)}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form className="settings-form" onSubmit={submit} aria-label="Add a redaction rule">
        <select
          className="input"
          aria-label="Rule kind"
          value={kind}
          onChange={(e) => {
            const k = e.target.value as Kind;
            setKind(k);
            setValue(k === 'builtin' ? 'email' : '');
          }}
        >
          <option value="builtin">Built-in pattern</option>
          <option value="key">Key name</option>
          <option value="regex">Regular expression</option>
        </select>
        {kind === 'builtin' ? (
          <select className="input" aria-label="Built-in pattern" value={value} onChange={(e) => setValue(e.target.value)}>
            {BUILTIN_NAMES.map((b) => (
              <option key={b} value={b}>
                {b}
              </option>
            ))}
          </select>
        ) : (
          <input
            className="input"
            aria-label={kind === 'key' ? 'Key name' : 'Regular expression'}
            placeholder={kind === 'key' ? 'e.g. api_key, authorization, password' : 'e.g. ORD-[0-9]{6}'}
            required
            value={value}
            onChange={(e) => setValue(e.target.value)}
          />
        )}
        {kind === 'regex' && (
          <input
            className="input"
            aria-label="Label"
            placeholder="Label in the marker (optional)"
            value={label}
            onChange={(e) => setLabel(e.target.value)}
          />
        )}
        <button type="submit" className="button primary" disabled={add.isPending}>
          Add rule
        </button>
      </form>
      <label className="muted" htmlFor="redaction-sample">
        Test this rule on sample text (tried here, nothing is sent)
      </label>
      <textarea
        id="redaction-sample"
        className="input mono"
        rows={3}
        maxLength={SAMPLE_LIMIT}
        value={sample}
        onChange={(e) => setSample(e.target.value)}
      />
      <pre className="mono" aria-label="Sample after redaction" role="status">
        {result}
      </pre>
      <FormStatus error={add.error ?? remove.error} />
    </section>
  );
}
