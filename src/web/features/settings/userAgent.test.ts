import { describe, expect, it } from 'vitest';
import { describeAgent } from './userAgent.js';

describe('describeAgent', () => {
  it('names common browsers and systems, phones before the desktop systems their agents also mention', () => {
    expect(describeAgent('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36')).toBe(
      'Chrome on Linux',
    );
    expect(describeAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Version/17.0 Mobile/15E148 Safari/604.1')).toBe(
      'Safari on iOS',
    );
    expect(describeAgent('Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36')).toBe('Chrome on Android');
    expect(describeAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64) Gecko/20100101 Firefox/128.0')).toBe('Firefox on Windows');
    expect(describeAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Version/17.5 Safari/605.1.15')).toBe(
      'Safari on macOS',
    );
    expect(describeAgent('Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 Chrome/126.0 Safari/537.36 Edg/126.0')).toBe('Edge on Windows');
  });

  it('keeps an unknown agent readable and says so when there is none', () => {
    expect(describeAgent('curl/8.5.0')).toBe('curl/8.5.0');
    expect(describeAgent('x'.repeat(100))).toHaveLength(58);
    expect(describeAgent('')).toBe('Unknown browser');
  });
});
