/** The limits are settable, checked when set, and all documented in the README's table. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { DEFAULT_LIMITS, LIMIT_SPECS, loadLimits } from './limits.js';

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

  it('are every one listed in the README table with its default', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    for (const spec of LIMIT_SPECS) {
      expect(readme).toMatch(new RegExp(`\\| \`${spec.env}\` / \`--${spec.flag}\` \\| \`${spec.default}\``));
    }
  });
});
