/**
 * Filter-builder pieces for feedback fields: the value control of a reaction or annotation
 * clause (an emoji list, Yes/No, a category list, or text), and the annotation fields of the
 * project as field suggestions.
 */
import { useQuery } from '@tanstack/react-query';
import { annotationSpecsQueryOptions } from './annotationSpecs.js';
import { annotationField, annotationNameOf, PICKER_EMOJIS, REACTION_FIELD, THUMBS_DOWN, THUMBS_UP } from './feedbackModel.js';

const EMOJI_LABELS: Record<string, string> = { [THUMBS_UP]: '👍 thumbs up', [THUMBS_DOWN]: '👎 thumbs down' };

/** The value control for a clause on a feedback field. */
export function FeedbackValueInput({
  projectId,
  field,
  op,
  value,
  onChange,
}: {
  projectId: string;
  field: string;
  op: string;
  value: string;
  onChange: (v: string) => void;
}) {
  const { data: specs } = useQuery({ ...annotationSpecsQueryOptions(projectId), enabled: annotationNameOf(field) !== null });
  const spec = specs?.find((s) => s.name === annotationNameOf(field));
  const choices =
    field === REACTION_FIELD
      ? PICKER_EMOJIS.map((e) => ({ value: e, label: EMOJI_LABELS[e] ?? e }))
      : spec?.field.kind === 'boolean'
        ? [
            { value: 'true', label: 'Yes' },
            { value: 'false', label: 'No' },
          ]
        : spec?.field.kind === 'category'
          ? spec.field.options.map((o) => ({ value: o, label: o }))
          : null;
  if (choices && (op === 'eq' || op === 'neq')) {
    return (
      <select className="input" aria-label="Value" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">choose…</option>
        {choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
    );
  }
  const numeric = spec?.field.kind === 'number';
  return (
    <input
      className="input"
      aria-label="Value"
      inputMode={numeric ? 'decimal' : undefined}
      placeholder={op === 'in' ? 'a, b, c' : numeric ? '0' : 'value'}
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

/** `<option>`s naming each annotation field of the project, for a field datalist. */
export function AnnotationFieldOptions({ projectId }: { projectId: string }) {
  const { data: specs } = useQuery(annotationSpecsQueryOptions(projectId));
  return (
    <>
      {(specs ?? []).map((s) => (
        <option key={s.name} value={annotationField(s.name)}>
          {`${s.name} (annotation)`}
        </option>
      ))}
    </>
  );
}
