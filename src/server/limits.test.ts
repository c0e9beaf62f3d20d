/** The limits are settable and checked when set (settings.test.ts checks their docs). */
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { DEFAULT_LIMITS, loadLimits } from './limits.js';

describe('request limits', () => {
  it('come from the environment, flags winning', () => {
    const limits = loadLimits({ WEFT_MAX_QUERY_OPERANDS: '50', WEFT_MAX_JSON_DEPTH: '10' }, { 'max-json-depth': '20' });
    expect(limits).toEqual({ ...DEFAULT_LIMITS, maxQueryOperands: 50, maxJsonDepth: 20 });
    expect(loadConfig({ WEFT_MAX_BODY_BYTES: '1000' }).maxBodyBytes).toBe(1000);
  });

  it('refuse a value that is not a whole number of at least 1, naming the variable', () => {
    expect(() => loadLimits({ WEFT_MAX_ID_LIST: 'lots' })).toThrow(
      'WEFT_MAX_ID_LIST / --max-id-list must be a whole number ≥ 1, not "lots"',
    );
    expect(() => loadLimits({ WEFT_MAX_QUERY_DEPTH: '0' })).toThrow(/WEFT_MAX_QUERY_DEPTH/);
  });
});
