/**
 * The project's annotation fields for one call: the viewer's own value in an input that suits
 * the field (AnnotationInput), and every other annotator's value with who and when. Setting a
 * value replaces the viewer's previous one, so each person holds one value per field.
 */
import { useQuery } from '@tanstack/react-query';
import { annotationSpecsQueryOptions, type AnnotationSpec } from '../../entities/feedback/annotationSpecs.js';
import { AnnotationInput } from './AnnotationInput.js';
import { FeedbackMeta } from './FeedbackMeta.js';
import {
  ANNOTATION_PREFIX,
  annotationsOf,
  annotationValue,
  formatFeedbackValue,
  type FeedbackRow,
} from '../../entities/feedback/feedbackModel.js';
import { useFeedbackMutations } from '../../entities/feedback/feedbackQueries.js';
import { MutationError } from '../../components/ui/MutationError.js';
import { useCan } from '../auth/useCan.js';
import './feedback.css';

/** Props shared by the list and each field. */
interface FieldsProps {
  projectId: string;
  callId: string;
  rows: FeedbackRow[];
  me: string;
}

/** Every annotation field of the project, for one call. */
export function AnnotationFields(props: FieldsProps) {
  const { data: specs, error } = useQuery(annotationSpecsQueryOptions(props.projectId));
  if (error)
    return (
      <p className="fb-error" role="alert">
        Cannot load the annotation fields: {String((error as Error).message)}
      </p>
    );
  if (!specs) return null;
  if (specs.length === 0) {
    return (
      <p className="muted small fb-hint">
        Annotation fields (scores, labels, yes/no) appear here once the project has AnnotationSpec objects, made with the SDK or an
        annotation queue.
      </p>
    );
  }
  return (
    <div className="fb-block">
      <h4>Annotations</h4>
      <ul className="fb-annotations" aria-label="Annotations">
        {specs.map((spec) => (
          <AnnotationRow key={spec.name} spec={spec} {...props} />
        ))}
      </ul>
    </div>
  );
}

function AnnotationRow({ spec, projectId, callId, rows, me }: FieldsProps & { spec: AnnotationSpec }) {
  const { create, replace, remove } = useFeedbackMutations({ projectId, callId });
  const all = annotationsOf(rows, spec.name);
  const mine = all.find((r) => r.wb_user_id === me) ?? null;
  const others = all.filter((r) => r.wb_user_id !== me);
  const can = useCan(projectId);
  const write = can(mine ? 'feedbackReplace' : 'feedbackCreate');
  const busy = create.isPending || replace.isPending || remove.isPending;

  const save = (value: unknown) => {
    const input = { feedback_type: `${ANNOTATION_PREFIX}${spec.name}`, payload: { value }, annotation_ref: spec.ref };
    if (mine) replace.mutate({ ...input, feedbackId: mine.id });
    else create.mutate(input);
  };

  return (
    <li className="fb-annotation">
      <div className="fb-annotation-label">
        <span className="fb-annotation-name">{spec.name}</span>
        {spec.description && <span className="muted small">{spec.description}</span>}
      </div>
      <div className="fb-annotation-body">
        {write.allowed ? (
          <AnnotationInput
            key={mine?.id ?? 'none'}
            name={spec.name}
            field={spec.field}
            value={mine ? annotationValue(mine) : undefined}
            busy={busy}
            onSave={save}
            onClear={mine && can('feedbackPurge').allowed ? () => remove.mutate(mine.id) : null}
          />
        ) : (
          <span className="muted small" title={write.reason ?? undefined}>
            {mine ? formatFeedbackValue(annotationValue(mine)) : `Annotating needs the ${write.need} role`}
          </span>
        )}
        {mine && (
          <span className="muted small">
            yours, <FeedbackMeta row={mine} />
          </span>
        )}
        {others.length > 0 && (
          <ul className="fb-list" aria-label={`Other annotations of ${spec.name}`}>
            {others.map((row) => (
              <li key={row.id}>
                <strong>{formatFeedbackValue(annotationValue(row))}</strong>
                <FeedbackMeta row={row} />
              </li>
            ))}
          </ul>
        )}
        <MutationError mutations={[create, replace, remove]} />
      </div>
    </li>
  );
}
