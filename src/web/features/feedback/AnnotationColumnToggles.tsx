/** Column-chooser checkboxes for the project's annotation fields (and annotation columns already shown). */
import { useQuery } from '@tanstack/react-query';
import { annotationSpecsQueryOptions } from '../../entities/feedback/annotationSpecs.js';
import { annotationField, annotationNameOf } from '../../entities/feedback/feedbackModel.js';

/** True for columns these toggles manage, so the chooser's path list leaves them out. */
export const isAnnotationColumn = (id: string): boolean => annotationNameOf(id) !== null;

/** One checkbox per annotation field; checking adds its column at the end. */
export function AnnotationColumnToggles({
  columns,
  onChange,
  projectId,
}: {
  columns: string[];
  onChange: (columns: string[]) => void;
  projectId: string;
}) {
  const { data: specs } = useQuery(annotationSpecsQueryOptions(projectId));
  const ids = [...new Set([...(specs ?? []).map((s) => annotationField(s.name)), ...columns.filter(isAnnotationColumn)])];
  return (
    <>
      {ids.map((id) => (
        <label key={id}>
          <input
            type="checkbox"
            checked={columns.includes(id)}
            onChange={(e) => onChange(e.target.checked ? [...columns, id] : columns.filter((c) => c !== id))}
          />
          {annotationNameOf(id)} <span className="muted small">annotation</span>
        </label>
      ))}
    </>
  );
}
