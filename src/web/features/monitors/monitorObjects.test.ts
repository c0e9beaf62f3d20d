import { describe, expect, it } from 'vitest';
import { fromMonitorValue, toMonitorValue } from './monitorObjects.js';

describe('monitor objects', () => {
  it('saves the reference dashboard shape and reads it back', () => {
    const form = {
      name: 'helpfulness',
      description: '',
      ops: ['answer'],
      scorers: ['weave:///e/p/object/judge:abc'],
      samplingPercent: 25,
      active: true,
      query: null,
    };
    const value = toMonitorValue('e/p', form);
    expect(value).toMatchObject({
      _class_name: 'Monitor',
      _bases: ['Object', 'BaseModel'],
      op_names: ['weave:///e/p/op/answer:*'],
      query: null,
      sampling_rate: 0.25,
      active: true,
    });
    expect(fromMonitorValue('helpfulness', value)).toEqual(form);
  });

  it("reads the Python SDK's call_filter shape; no ops means every op", () => {
    const form = fromMonitorValue('m', {
      sampling_rate: 1,
      scorers: [],
      active: false,
      call_filter: { op_names: ['weave:///e/p/op/chat:*'], query: { $expr: { $eq: [1, 1] } } },
    });
    expect(form).toMatchObject({ ops: ['chat'], samplingPercent: 100, active: false, query: { $expr: { $eq: [1, 1] } } });
    expect(toMonitorValue('e/p', { ...form, ops: [] }).op_names).toBeNull();
  });
});
