import { describe, expect, it } from 'vitest';
import { countEmojis, demojize, detone } from './emoji.js';

describe('emoji helpers', () => {
  it('counts emoji sequences once each', () => {
    expect(countEmojis('👍')).toBe(1);
    expect(countEmojis('👍🏽')).toBe(1);
    expect(countEmojis('🧑‍💻')).toBe(1);
    expect(countEmojis('❤')).toBe(1);
    expect(countEmojis('👍👎')).toBe(2);
    expect(countEmojis('ok')).toBe(0);
  });

  it('names known emojis, skin tones included, and leaves unknown ones as they are', () => {
    expect(demojize('👍')).toBe(':thumbs_up:');
    expect(demojize('👍🏿')).toBe(':thumbs_up_dark_skin_tone:');
    expect(demojize('❤️')).toBe(':red_heart:');
    expect(demojize('🦄')).toBe('🦄');
  });

  it('strips skin tones', () => {
    expect(detone('👍🏼')).toBe('👍');
    expect(detone('a👏🏾b')).toBe('a👏b');
  });
});
