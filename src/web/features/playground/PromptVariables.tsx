/** The `{name}` variables of the playground's messages: one input each, filled in when it runs (docs/prompts.md). */
import './playground.css';

/** Inputs for the variables; an empty one leaves its placeholder as written. */
export function PromptVariables({
  names,
  values,
  onChange,
}: {
  names: string[];
  values: Record<string, string>;
  onChange: (values: Record<string, string>) => void;
}) {
  if (names.length === 0) return null;
  return (
    <fieldset className="playground-params playground-variables" aria-label="Variables">
      <legend>Variables</legend>
      {names.map((name) => (
        <label className="field" key={name}>
          <span className="mono">{name}</span>
          <textarea
            className="input"
            aria-label={`Variable ${name}`}
            rows={1}
            value={values[name] ?? ''}
            onChange={(e) => onChange({ ...values, [name]: e.target.value })}
          />
        </label>
      ))}
    </fieldset>
  );
}
