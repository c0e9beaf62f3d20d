/** A field path input that suggests known fields and paths seen in recent calls. */
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { AnnotationFieldOptions } from '../feedback/FeedbackFilterInputs.js';
import { callsSampleQueryOptions, suggestPaths } from './callQueries.js';
import { KNOWN_FIELDS } from './filterModel.js';

/** Text input with a datalist of field paths. */
export function FieldPathInput({
  projectId,
  value,
  onChange,
  ariaLabel,
  placeholder = 'field, e.g. inputs.question',
  includeKnown = true,
}: {
  projectId: string;
  value: string;
  onChange: (path: string) => void;
  ariaLabel: string;
  placeholder?: string;
  includeKnown?: boolean;
}) {
  const id = useId();
  const { data } = useQuery({ ...callsSampleQueryOptions(projectId), select: suggestPaths });
  return (
    <>
      <input
        className="input mono"
        list={id}
        aria-label={ariaLabel}
        placeholder={placeholder}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      <datalist id={id}>
        {includeKnown &&
          KNOWN_FIELDS.map((f) => (
            <option key={f.path} value={f.path}>
              {f.label}
            </option>
          ))}
        {includeKnown && <AnnotationFieldOptions projectId={projectId} />}
        {(data ?? []).map((p) => (
          <option key={p} value={p} />
        ))}
      </datalist>
    </>
  );
}
