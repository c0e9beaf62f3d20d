/**
 * One queue item under review: the call's chosen fields beside the questions and the actions.
 * Mounted per item (keyed by id), so its answers start fresh, or from my earlier answers when I
 * already finished it. Owns the keyboard while mounted.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { describeError, ErrorState } from '../../../components/ui/ErrorState.js';
import { Spinner } from '../../../components/ui/Spinner.js';
import { StatusBadge } from '../../../components/ui/StatusBadge.js';
import { formatDateTime } from '../../../lib/format.js';
import { callName, callStatus } from '../../../entities/calls/callFields.js';
import { callQueryOptions } from '../../../entities/calls/callQueries.js';
import type { JsonValue } from '../../../../contract/common.js';
import type { QueueItem } from '../annotationQueries.js';
import type { Answer } from '../queueMutations.js';
import { parseNumber } from '../../../lib/annotationSpec.js';
import { keyChoices, type QueueField } from '../queueFields.js';
import { AnnotationForm, focusQuestion } from './AnnotationForm.js';
import { CallFields } from './CallFields.js';
import { ThreadUnderReview } from './ThreadUnderReview.js';
import type { MyState } from './reviewModel.js';
import { useReviewKeys } from './useReviewKeys.js';
import './review.css';

/** Props: the item, how it is shown, my state on it, and the page's actions. */
export interface ItemReviewProps {
  projectId: string;
  /** The signed-in reviewer. */
  user: string;
  item: QueueItem;
  fields: QueueField[];
  paths: string[];
  myState: MyState | undefined;
  myAnswers: ReadonlyMap<string, unknown>;
  submitting: boolean;
  submitError: unknown;
  helpOpen: boolean;
  /** `replace`: an edit of an item I already answered or skipped. */
  onSubmit: (answers: Answer[], replace: boolean) => void;
  onSkip: (replace: boolean) => void;
  onContinue: () => void;
  onNext: (() => void) | null;
  onPrev: (() => void) | null;
  onHelp: () => void;
}

/** The review of one item. */
export function ItemReview(props: ItemReviewProps) {
  const { projectId, item, fields, paths, myState, myAnswers, submitting, submitError, helpOpen } = props;
  const { data: call, error, isPending, refetch } = useQuery(callQueryOptions({ projectId, id: item.call_id }));
  const answered = myState !== undefined;
  // Editing reopens a finished item: the form takes my earlier answers and a submit replaces them.
  const [editing, setEditing] = useState(false);
  const finished = answered && !editing;
  const [draft, setDraft] = useState<ReadonlyMap<string, unknown>>(() => new Map(answered ? myAnswers : []));
  const [active, setActive] = useState(0);
  const [errors, setErrors] = useState<ReadonlyMap<string, string>>(new Map());
  const [hint, setHint] = useState<string | null>(null);
  const formRef = useRef<HTMLDivElement>(null);
  const traceUrl = `/${projectId}/traces/${item.call_trace_id}?call=${item.call_id}`;

  // Moves focus into the first question when an item opens, so keys and Tab start there.
  useEffect(() => {
    if (!finished && fields[0] && keyChoices(fields[0].kind)) focusQuestion(formRef.current, 0);
  }, [finished, fields]);

  const setValue = (ref: string, value: unknown) => {
    setDraft((d) => new Map(d).set(ref, value));
    setErrors((e) => (e.has(ref) ? new Map([...e].filter(([k]) => k !== ref)) : e));
    setHint(null);
  };

  const submit = () => {
    if (submitting) return;
    if (finished) return props.onContinue();
    const answers: Answer[] = [];
    const problems = new Map<string, string>();
    for (const f of fields) {
      const v = draft.get(f.ref);
      if (v === undefined || v === '') continue;
      if (f.kind.kind === 'number' && typeof v === 'string') {
        const parsed = parseNumber(v, f.kind);
        if ('error' in parsed) problems.set(f.ref, parsed.error);
        else answers.push({ annotation_ref: f.ref, value: parsed.value });
      } else answers.push({ annotation_ref: f.ref, value: v as JsonValue }); // form values (text, numbers, booleans) are JSON
    }
    setErrors(problems);
    if (problems.size > 0)
      return focusQuestion(
        formRef.current,
        fields.findIndex((f) => problems.has(f.ref)),
      );
    if (answers.length === 0) return setHint('Answer at least one question, or press S to skip this call.');
    props.onSubmit(answers, editing);
  };
  const skip = () => props.onSkip(editing);
  const startEditing = () => {
    setEditing(true);
    setDraft(new Map(myAnswers));
  };

  useReviewKeys({
    onDigit: (digit, e) => {
      const field = fields[active];
      if (helpOpen || finished || !field) return;
      const choices = keyChoices(field.kind);
      if (!choices) return focusQuestion(formRef.current, active); // the digit then types into the box
      const at = choices.findIndex((c) => c.key === digit);
      if (at < 0) return;
      e.preventDefault();
      setValue(field.ref, choices[at]!.value);
      formRef.current?.querySelectorAll('[data-question]')[active]?.querySelectorAll<HTMLElement>('[role=radio]')[at]?.focus();
    },
    onSubmit: helpOpen ? undefined : submit,
    onSkip: helpOpen || finished || submitting ? undefined : skip,
    onEdit: helpOpen || !finished ? undefined : startEditing,
    onNext: helpOpen ? undefined : (props.onNext ?? undefined),
    onPrev: helpOpen ? undefined : (props.onPrev ?? undefined),
    onHelp: props.onHelp,
    onOpen: helpOpen ? undefined : () => window.open(traceUrl, '_blank', 'noopener'),
  });
  const others = !answered && item.annotator_user_id && item.annotation_state !== 'unstarted' ? item.annotator_user_id : null;
  const heldBy = !answered && item.reserved_by && item.reserved_by !== props.user ? item.reserved_by : null;

  return (
    <div className="review-body">
      <section className="review-call" aria-label="Call under review">
        <header className="review-call-head">
          {call && <StatusBadge status={callStatus(call)} />}
          <h2 className="ellipsis">{call ? callName(call) : item.call_op_name}</h2>
          <span className="muted small">{formatDateTime(item.call_started_at)}</span>
          <span className="spacer" />
          <Link to={traceUrl} target="_blank" rel="noreferrer" className="small">
            Open trace ↗ <kbd>O</kbd>
          </Link>
        </header>
        {isPending ? (
          <div className="page-loading">
            <Spinner showLabel label="Loading call" />
          </div>
        ) : error ? (
          <ErrorState error={error} onRetry={() => void refetch()} />
        ) : call === null ? (
          <p className="muted">This call no longer exists (it may have been deleted). Skip it to move on.</p>
        ) : item.thread_id ? (
          <ThreadUnderReview projectId={projectId} threadId={item.thread_id} />
        ) : (
          <CallFields call={call} paths={paths} />
        )}
      </section>
      <aside className="review-panel" aria-label="Annotation">
        {finished && (
          <p className={`review-state ${myState}`} role="status">
            {myState === 'completed' ? 'You answered this call. Your answers are saved as feedback on it.' : 'You skipped this call.'}
          </p>
        )}
        {editing && (
          <p className="review-state other small" role="status">
            Editing your {myState === 'skipped' ? 'skipped call' : 'answers'}: saving replaces what you gave before (the item&apos;s history
            keeps it).
          </p>
        )}
        {heldBy && <p className="review-state other small">{heldBy} is reviewing this call right now.</p>}
        {others && (
          <p className="review-state other small">
            {item.annotation_state === 'skipped' ? 'Skipped' : 'Answered'} by {others} too. Your answers are kept separately.
          </p>
        )}
        <div ref={formRef}>
          <AnnotationForm fields={fields} draft={draft} onChange={setValue} onActivate={setActive} readOnly={finished} errors={errors} />
        </div>
        {hint && (
          <p className="form-error" role="alert">
            {hint}
          </p>
        )}
        {submitError != null && (
          <p className="form-error" role="alert">
            {describeError(submitError).title}: {describeError(submitError).detail}
          </p>
        )}
        <div className="review-actions">
          {finished ? (
            <>
              <button type="button" className="button primary" onClick={props.onContinue}>
                Next unfinished <kbd>Enter</kbd>
              </button>
              <button type="button" className="button" onClick={startEditing}>
                {myState === 'skipped' ? 'Answer it' : 'Edit answers'} <kbd>E</kbd>
              </button>
            </>
          ) : editing ? (
            <>
              <button type="button" className="button primary" onClick={submit} disabled={submitting}>
                {submitting ? 'Saving…' : 'Save changes'} <kbd>Enter</kbd>
              </button>
              <button type="button" className="button" onClick={() => setEditing(false)} disabled={submitting}>
                Cancel
              </button>
            </>
          ) : (
            <>
              <button type="button" className="button primary" onClick={submit} disabled={submitting}>
                {submitting ? 'Saving…' : 'Submit & next'} <kbd>Enter</kbd>
              </button>
              <button type="button" className="button" onClick={skip} disabled={submitting}>
                Skip <kbd>S</kbd>
              </button>
            </>
          )}
        </div>
        <div className="review-nav">
          <button type="button" className="button ghost small" onClick={props.onPrev ?? undefined} disabled={!props.onPrev}>
            <kbd>K</kbd> Previous
          </button>
          <button type="button" className="button ghost small" onClick={props.onNext ?? undefined} disabled={!props.onNext}>
            Next <kbd>J</kbd>
          </button>
          <span className="spacer" />
          <button type="button" className="button ghost small" onClick={props.onHelp}>
            Shortcuts <kbd>?</kbd>
          </button>
        </div>
      </aside>
    </div>
  );
}
