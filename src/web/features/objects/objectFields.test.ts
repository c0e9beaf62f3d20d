import { describe, expect, it } from 'vitest';
import { parseEdges } from '../../lib/refs.js';
import { findTableFields, objectCategory, resolveRefPath, sourceFile } from './objectFields.js';

const edges = (path: string) => parseEdges(path.split('/'))!;

describe('objectCategory', () => {
  it('puts ops, datasets, prompts and the rest in their tabs', () => {
    expect(objectCategory({ kind: 'op', base_object_class: null, leaf_object_class: null })).toBe('op');
    expect(objectCategory({ kind: 'object', base_object_class: 'Dataset', leaf_object_class: 'Dataset' })).toBe('dataset');
    expect(objectCategory({ kind: 'object', base_object_class: 'Prompt', leaf_object_class: 'StringPrompt' })).toBe('prompt');
    expect(objectCategory({ kind: 'object', base_object_class: 'Model', leaf_object_class: 'AdderModel' })).toBe('model');
    expect(objectCategory({ kind: 'object', base_object_class: null, leaf_object_class: null })).toBe('other');
  });
});

describe('findTableFields', () => {
  it('finds table refs at any shallow path, not row refs', () => {
    const val = { rows: 'weave:///a/b/table/t1', nested: { examples: ['x', 'weave:///a/b/table/t2'] }, one: 'weave:///a/b/table/t3/id/r1' };
    expect(findTableFields(val).map((f) => [f.label, f.digest])).toEqual([
      ['rows', 't1'],
      ['nested.examples[1]', 't2'],
    ]);
  });
});

describe('resolveRefPath', () => {
  const val = { rows: 'weave:///a/b/table/t1', config: { stops: ['a', 'b'] }, model: 'weave:///a/b/object/m:d1' };

  it('walks attr, key and index edges to a JSON path', () => {
    expect(resolveRefPath(val, edges('attr/config/key/stops/index/1'))).toEqual({ kind: 'json', path: ['config', 'stops', 1] });
  });

  it('turns a row edge on a table field into that row', () => {
    expect(resolveRefPath(val, edges('attr/rows/id/r9'))).toEqual({ kind: 'table', path: ['rows'], row: 'r9' });
  });

  it('hands the rest of the path to another object it reaches', () => {
    expect(resolveRefPath(val, edges('attr/model/attr/temperature'))).toEqual({
      kind: 'ref',
      path: ['model'],
      uri: 'weave:///a/b/object/m:d1/attr/temperature',
    });
  });

  it('stops at the last step that exists', () => {
    expect(resolveRefPath(val, edges('attr/config/key/missing/index/3'))).toEqual({ kind: 'json', path: ['config', 'missing'] });
  });
});

describe('sourceFile', () => {
  it('prefers obj.py, else a single file', () => {
    expect(sourceFile({ files: { 'obj.py': 'd1', 'other.txt': 'd2' } })).toEqual({ name: 'obj.py', digest: 'd1' });
    expect(sourceFile({ files: { 'main.ts': 'd3' } })).toEqual({ name: 'main.ts', digest: 'd3' });
    expect(sourceFile({ name: 'x' })).toBeNull();
  });
});
