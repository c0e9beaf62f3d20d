/**
 * The builtin object classes Weft knows field by field (docs/api/core.md §2 "ObjSchema", builtin
 * classes): the reference's `Leaderboard` and `SavedView`, as its newest
 * `builtin_object_classes/leaderboard.py` and `saved_view.py` declare them. Shapes owned by the
 * calls API inside a saved view (filter, query, sort keys) are checked loosely and kept as given.
 */
import { isLosslessObject, type LosslessValue } from './losslessJson.js';
import { BASE_OBJECT_FIELDS, BOOL, dictOf, INT, listOf, model, oneOf, STR, type FieldType, type ModelSpec } from './builtinModels.js';

const PYDANTIC: readonly string[] = ['BaseModel'];
const BASE_OBJECT: readonly string[] = ['BaseObject', 'BaseModel'];

const LeaderboardColumn: ModelSpec = {
  name: 'LeaderboardColumn',
  bases: PYDANTIC,
  fields: [
    { name: 'evaluation_object_ref', type: STR },
    { name: 'scorer_name', type: STR },
    { name: 'summary_metric_path', type: STR },
    { name: 'should_minimize', type: BOOL, optional: true },
  ],
};

const MetricConfig: ModelSpec = {
  name: 'MetricConfig',
  bases: PYDANTIC,
  fields: [
    { name: 'dataset_name', type: STR },
    { name: 'scorer_name', type: STR },
    { name: 'metric_path', type: STR },
    { name: 'should_minimize', type: BOOL },
    { name: 'selected', type: BOOL },
  ],
};

export const Leaderboard: ModelSpec = {
  name: 'Leaderboard',
  bases: BASE_OBJECT,
  fields: [
    ...BASE_OBJECT_FIELDS,
    { name: 'columns', type: listOf(model(LeaderboardColumn)) },
    { name: 'calls_query', type: STR, optional: true },
    { name: 'color_scheme', type: oneOf(['diverging', 'sequential', 'categorical']), optional: true },
    { name: 'grouping_by', type: oneOf(['model', 'dataset', 'scorer']), optional: true },
    { name: 'models_use_version_grouping', type: BOOL, optional: true },
    { name: 'models_show_version_indicator', type: BOOL, optional: true },
    { name: 'selected_models', type: listOf(STR), optional: true },
    { name: 'model_display_names', type: dictOf(STR), optional: true },
    { name: 'datasets_use_version_grouping', type: BOOL, optional: true },
    { name: 'datasets_show_version_indicator', type: BOOL, optional: true },
    { name: 'selected_datasets', type: listOf(STR), optional: true },
    { name: 'dataset_display_names', type: dictOf(STR), optional: true },
    { name: 'dataset_version_aggregation', type: oneOf(['latest', 'average', 'max', 'min']), optional: true },
    { name: 'score_selection_strategy', type: oneOf(['latest', 'average', 'manual']), optional: true },
    { name: 'manual_version_selections', type: dictOf(STR), optional: true },
    { name: 'metric_configs', type: listOf(model(MetricConfig)), optional: true },
  ],
};

const jsonObject = (expected: string): FieldType => ({ kind: 'json', check: isLosslessObject, expected });
const sortKeys: FieldType = {
  kind: 'json',
  expected: 'a list of {field, direction: "asc" | "desc"}',
  check: (v: LosslessValue) =>
    Array.isArray(v) &&
    v.every((s) => isLosslessObject(s) && typeof s.get('field') === 'string' && ['asc', 'desc'].includes(s.get('direction') as string)),
};

const Pin: ModelSpec = {
  name: 'Pin',
  bases: PYDANTIC,
  fields: [
    { name: 'left', type: listOf(STR) },
    { name: 'right', type: listOf(STR) },
  ],
};

const Column: ModelSpec = {
  name: 'Column',
  bases: PYDANTIC,
  fields: [
    { name: 'path', type: listOf({ kind: 'union', of: [STR, INT] }), optional: true },
    { name: 'label', type: STR, optional: true },
  ],
};

const ChartConfig: ModelSpec = {
  name: 'ChartConfig',
  bases: PYDANTIC,
  fields: [
    { name: 'x_axis', type: STR },
    { name: 'y_axis', type: STR },
    { name: 'plot_type', type: oneOf(['scatter', 'line', 'bar']), optional: true },
    { name: 'bin_count', type: INT, optional: true },
    { name: 'aggregation', type: oneOf(['average', 'sum', 'min', 'max', 'p95', 'p99']), optional: true },
    { name: 'group_keys', type: listOf(STR), optional: true },
    { name: 'custom_name', type: STR, optional: true },
  ],
};

const SavedViewDefinition: ModelSpec = {
  name: 'SavedViewDefinition',
  bases: PYDANTIC,
  fields: [
    { name: 'filter', type: jsonObject('a calls filter object'), optional: true },
    { name: 'query', type: jsonObject('a query object ({"$expr": ...})'), optional: true },
    { name: 'cols', type: dictOf(BOOL), optional: true },
    { name: 'columns', type: listOf(model(Column)), optional: true },
    { name: 'pin', type: model(Pin), optional: true },
    { name: 'sort_by', type: sortKeys, optional: true },
    { name: 'page', type: INT, optional: true },
    { name: 'page_size', type: INT, optional: true },
    { name: 'charts', type: listOf(model(ChartConfig)), optional: true },
  ],
};

export const SavedView: ModelSpec = {
  name: 'SavedView',
  bases: BASE_OBJECT,
  fields: [
    ...BASE_OBJECT_FIELDS,
    { name: 'view_type', type: STR },
    { name: 'label', type: STR },
    { name: 'definition', type: model(SavedViewDefinition) },
  ],
};

/** Builtin classes by name. */
export const BUILTIN_CLASSES: ReadonlyMap<string, ModelSpec> = new Map([
  [Leaderboard.name, Leaderboard],
  [SavedView.name, SavedView],
]);
