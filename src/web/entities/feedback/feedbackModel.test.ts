import { describe, expect, it } from 'vitest';
import { NO_SCORER_FEEDBACK } from '../../../contract/scorerFeedback.js';
import { compileClause } from '../calls/filterModel.js';
import { specOf } from './annotationSpecs.js';
import {
  annotationField,
  annotationNameOf,
  feedbackOfCall,
  groupReactions,
  notesOf,
  NOTE_FIELD,
  REACTION_FIELD,
  scorerResultsOf,
  summarizeFeedback,
  type FeedbackRow,
} from './feedbackModel.js';

let seq = 0;
function row(feedback_type: string, payload: Record<string, unknown>, wb_user_id = 'alice'): FeedbackRow {
  seq += 1;
  return {
    id: `f${seq}`,
    project_id: 'e/p',
    weave_ref: 'weave:///e/p/call/c1',
    wb_user_id,
    creator: null,
    created_at: `2025-01-01T00:00:0${seq % 10}Z`,
    feedback_type,
    payload,
    annotation_ref: null,
    runnable_ref: null,
    call_ref: null,
    trigger_ref: null,
    queue_id: null,
    ...NO_SCORER_FEEDBACK,
  };
}

describe('groupReactions', () => {
  it('groups by emoji with skin tones merged, thumbs first, and finds the viewer’s own', () => {
    const rows = [
      row('wandb.reaction.1', { emoji: '🎉' }),
      row('wandb.reaction.1', { emoji: '👎🏽', detoned: '👎' }, 'bob'),
      row('wandb.reaction.1', { emoji: '👎', detoned: '👎' }),
      row('wandb.note.1', { note: 'x' }),
    ];
    const groups = groupReactions(rows, 'alice');
    expect(groups.map((g) => [g.emoji, g.rows.length, g.mine?.id ?? null])).toEqual([
      ['👎', 2, rows[2]!.id],
      ['🎉', 1, rows[0]!.id],
    ]);
    expect(groupReactions(rows, 'carol').every((g) => g.mine === null)).toBe(true);
  });
});

describe('summaries', () => {
  it('counts reactions, notes and annotations', () => {
    const rows = [
      row('wandb.reaction.1', { emoji: '👍' }),
      row('wandb.reaction.1', { emoji: '👍' }, 'bob'),
      row('wandb.note.1', { note: 'hi' }),
      row('wandb.annotation.q', { value: 3 }),
    ];
    expect(summarizeFeedback(rows)).toEqual({ reactions: [{ emoji: '👍', count: 2 }], notes: 1, annotations: 1 });
    expect(notesOf(rows)).toHaveLength(1);
  });

  it('reads summary.weave.feedback, null when the call was read without it', () => {
    expect(feedbackOfCall({ summary: { weave: { feedback: [] } } })).toEqual([]);
    expect(feedbackOfCall({ summary: { weave: {} } })).toBeNull();
    expect(feedbackOfCall({ summary: null })).toBeNull();
  });
});

describe('annotation fields', () => {
  it('names annotation value paths', () => {
    expect(annotationField('quality')).toBe('feedback.[wandb.annotation.quality].payload.value');
    expect(annotationNameOf('feedback.[wandb.annotation.my.spec].payload.value')).toBe('my.spec');
    expect(annotationNameOf(REACTION_FIELD)).toBeNull();
  });

  it('builds the ref annotation feedback points at', () => {
    const spec = specOf({
      project_id: 'e/p',
      object_id: 'quality',
      digest: 'abc',
      val: { field_schema: { type: 'boolean' }, description: 'Good?' },
    });
    expect(spec).toEqual({ name: 'quality', description: 'Good?', ref: 'weave:///e/p/object/quality:abc', field: { kind: 'boolean' } });
    expect(specOf({ project_id: 'e/p', object_id: 'x', digest: 'd', val: { other: 1 } })).toBeNull();
  });
});

describe('filter clauses on feedback', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it('compiles reactions and notes to feedback fields', () => {
    expect(compileClause({ field: REACTION_FIELD, op: 'eq', value: '👎' }, now)).toEqual({
      $eq: [{ $getField: REACTION_FIELD }, { $literal: '👎' }],
    });
    expect(compileClause({ field: NOTE_FIELD, op: 'contains', value: 'slow' }, now)).toEqual({
      $contains: { input: { $getField: NOTE_FIELD }, substr: { $literal: 'slow' }, case_insensitive: true },
    });
  });

  it('uses $lt as it is on feedback, so calls without an annotation do not match', () => {
    const field = annotationField('quality');
    expect(compileClause({ field, op: 'lt', value: '3' }, now)).toEqual({
      $lt: [{ $convert: { input: { $getField: field }, to: 'double' } }, { $literal: 3 }],
    });
    expect(compileClause({ field: 'inputs.n', op: 'lt', value: '3' }, now)).toHaveProperty('$not');
  });
});

describe('scorerResultsOf', () => {
  it("lists scorers' rows and rows with typed tags or ratings, with each tag's and rating's reason and confidence", () => {
    const judged = {
      ...row('wandb.runnable.tone', { output: { score: 0.2 } }),
      scorer_tags: ['rude'],
      scorer_tag_reasons: { rude: 'insults the user' },
      scorer_tag_confidences: { rude: 0.9 },
      scorer_ratings: { _rating_: 0.2 },
      scorer_rating_reasons: { _rating_: 'hostile' },
    };
    const plain = row('wandb.runnable.exact', { output: true });
    const typedOnly = { ...row('custom.review', {}), scorer_ratings: { clarity: 0.5 } };
    const results = scorerResultsOf([row('wandb.note.1', { note: 'hi' }), judged, plain, typedOnly, row('custom.other', {})]);
    expect(results.map((r) => [r.scorer, r.output])).toEqual([
      ['tone', { score: 0.2 }],
      ['exact', true],
      ['custom.review', undefined],
    ]);
    expect(results[0]!.tags).toEqual([{ name: 'rude', reason: 'insults the user', confidence: 0.9 }]);
    expect(results[0]!.ratings).toEqual([{ name: '_rating_', value: 0.2, reason: 'hostile', confidence: undefined }]);
    expect(results[1]!.tags).toEqual([]);
    expect(results[2]!.ratings).toEqual([{ name: 'clarity', value: 0.5, reason: undefined, confidence: undefined }]);
  });
});
