import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { countEmojis, demojize, detone } from './emoji.js';

/**
 * [text, emoji_count, demojize, detone_emojis] as the reference's Python `emoji` 2.16.0 and its
 * `weave/trace_server/emoji_util.py` answer them (`scripts/emoji-table.py --answers`, pasted here).
 */
const REFERENCE: [string, number, string, string][] = [
  ['\ud83c\udfb1', 1, ':pool_8_ball:', '\ud83c\udfb1'],
  ['\ud83d\udc4d\ud83c\udffb', 1, ':thumbs_up_light_skin_tone:', '\ud83d\udc4d'],
  ['\ud83d\udc4d', 1, ':thumbs_up:', '\ud83d\udc4d'],
  ['\u2764', 1, ':red_heart:', '\u2764\ufe0f'],
  ['\u2764\ufe0f', 1, ':red_heart:', '\u2764\ufe0f'],
  ['\ud83e\uddd1\u200d\ud83d\udcbb', 1, ':technologist:', '\ud83e\uddd1\u200d\ud83d\udcbb'],
  ['\ud83e\uddd1\ud83c\udffd\u200d\ud83d\udcbb', 1, ':technologist_medium_skin_tone:', '\ud83e\uddd1\u200d\ud83d\udcbb'],
  [
    '\ud83e\uddd1\ud83c\udffb\u200d\ud83e\udd1d\u200d\ud83e\uddd1\ud83c\udfff',
    1,
    ':people_holding_hands_light_skin_tone_dark_skin_tone:',
    '\ud83e\uddd1\u200d\ud83e\udd1d\u200d\ud83e\uddd1',
  ],
  [
    '\ud83d\udc69\u200d\ud83d\ude80\u200d\ud83d\udd25',
    2,
    ':woman_astronaut:\u200d:fire:',
    '\ud83d\udc69\u200d\ud83d\ude80\u200d\ud83d\udd25',
  ],
  ['\ud83d\udc4d\ud83d\udc4e', 2, ':thumbs_up::thumbs_down:', '\ud83d\udc4d\ud83d\udc4e'],
  ['a\ud83d\udc4db', 1, 'a:thumbs_up:b', 'a\ud83d\udc4db'],
  ['ok', 0, 'ok', 'ok'],
  ['', 0, '', ''],
  ['\ud83c\uddfa\ud83c\uddf8', 1, ':United_States:', '\ud83c\uddfa\ud83c\uddf8'],
  ['#\ufe0f\u20e3', 1, ':keycap_#:', '#\ufe0f\u20e3'],
  ['#\u20e3', 1, ':keycap_#:', '#\ufe0f\u20e3'],
  ['\ud83c\udff3\ufe0f\u200d\ud83c\udf08', 1, ':rainbow_flag:', '\ud83c\udff3\ufe0f\u200d\ud83c\udf08'],
  ['\ud83c\udff3\u200d\ud83c\udf08', 1, ':rainbow_flag:', '\ud83c\udff3\ufe0f\u200d\ud83c\udf08'],
  ['\ud83d\udc4b\ud83c\udfff\u200d', 1, ':waving_hand_dark_skin_tone:\u200d', '\ud83d\udc4b'],
  ['\u200d\ud83d\udc4d', 1, '\u200d:thumbs_up:', '\u200d\ud83d\udc4d'],
  ['\u263a', 1, ':smiling_face:', '\u263a\ufe0f'],
  ['\u263a\ufe0f', 1, ':smiling_face:', '\u263a\ufe0f'],
  ['\ud83d\udc68\u200d\ud83d\udc69\u200d\ud83d\udc67', 1, ':family_man_woman_girl:', '\ud83d\udc68\u200d\ud83d\udc69\u200d\ud83d\udc67'],
  ['\ud83e\udd1d\ud83c\udffb', 1, ':handshake_light_skin_tone:', '\ud83e\udd1d'],
  ['\ud83e\udef1\ud83c\udffb\u200d\ud83e\udef2\ud83c\udfff', 1, ':handshake_light_skin_tone_dark_skin_tone:', '\ud83e\udd1d'],
  ['\ud83e\ude85', 1, ':pi\u00f1ata:', '\ud83e\ude85'],
  ['\ud83c\udde6\ud83c\uddfd', 1, ':\u00c5land_Islands:', '\ud83c\udde6\ud83c\uddfd'],
  ['\ud83d\udd1f', 1, ':keycap_10:', '\ud83d\udd1f'],
  ['x\ufe0fy', 0, 'xy', 'xy'],
  ['\ud83c\udffb', 1, ':light_skin_tone:', '\ud83c\udffb'],
  ['\ud83d\udc4d\ud83c\udffb\ud83c\udffb', 2, ':thumbs_up_light_skin_tone::light_skin_tone:', '\ud83d\udc4d\ud83c\udffb'],
  ['\ud83e\uddd4\ud83c\udffc\u200d\u2642\ufe0f', 1, ':man_medium-light_skin_tone_beard:', '\ud83e\uddd4\u200d\u2642\ufe0f'],
  ['\ud83c\udfc3\ud83c\udffd\u200d\u27a1\ufe0f', 1, ':person_running_facing_right_medium_skin_tone:', '\ud83c\udfc3\u200d\u27a1\ufe0f'],
  ['\ud83d\udc26\u200d\ud83d\udd25', 1, ':phoenix:', '\ud83d\udc26\u200d\ud83d\udd25'],
  ['\ud83d\ude42\u200d\u2194\ufe0f', 1, ':head_shaking_horizontally:', '\ud83d\ude42\u200d\u2194\ufe0f'],
  ['\ud83d\ude36\u200d\ud83c\udf2b\ufe0f', 1, ':face_in_clouds:', '\ud83d\ude36\u200d\ud83c\udf2b\ufe0f'],
  [
    '\ud83c\udff4\udb40\udc67\udb40\udc62\udb40\udc73\udb40\udc63\udb40\udc74\udb40\udc7f',
    1,
    ':Scotland:',
    '\ud83c\udff4\udb40\udc67\udb40\udc62\udb40\udc73\udb40\udc63\udb40\udc74\udb40\udc7f',
  ],
  ['\u00a9', 1, ':copyright:', '\u00a9\ufe0f'],
  ['\u00a9\ufe0f', 1, ':copyright:', '\u00a9\ufe0f'],
  ['\ud83d\udc41\u200d\ud83d\udde8', 1, ':eye_in_speech_bubble:', '\ud83d\udc41\ufe0f\u200d\ud83d\udde8\ufe0f'],
  ['\u2764\u200d\ud83d\udd25', 1, ':heart_on_fire:', '\u2764\ufe0f\u200d\ud83d\udd25'],
  ['\ud83e\udee0', 1, ':melting_face:', '\ud83e\udee0'],
  ['\ud83e\udd84', 1, ':unicorn:', '\ud83e\udd84'],
  ['\ud83c\uddff', 0, '\ud83c\uddff', '\ud83c\uddff'],
];

describe('emoji helpers', () => {
  it.each(REFERENCE)('%j: count %j, name %j, detoned %j, as the reference', (text, count, alias, detoned) => {
    expect(countEmojis(text)).toBe(count);
    expect(demojize(text)).toBe(alias);
    expect(detone(text)).toBe(detoned);
  });

  it('names every emoji of the table by its own name, each counting once', () => {
    const table = JSON.parse(readFileSync(new URL('./emojiTable.json', import.meta.url), 'utf8')) as { entries: [string, string][] };
    expect(table.entries.length).toBeGreaterThan(5000);
    const wrong = table.entries.filter(([emoji, name]) => demojize(emoji) !== name || countEmojis(emoji) !== 1);
    expect(wrong).toEqual([]);
  });
});
