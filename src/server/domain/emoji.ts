/**
 * Emoji handling for `wandb.reaction.1` feedback, mirroring what the reference does with the
 * Python `emoji` package: count the emojis in a string, name one (`:thumbs_up:`, "demojize"),
 * and strip skin tones ("detone").
 *
 * Recognition uses Unicode's own emoji properties (RGI sequences, then any pictographic
 * character), so every emoji counts as one, ZWJ and skin-tone sequences included. Names come
 * from a table of the emojis people react with; like `emoji.demojize`, an emoji the table
 * does not know is left as it is.
 */

const EMOJI = new RegExp('\\p{RGI_Emoji}|\\p{Extended_Pictographic}', 'gv');

/** Skin-tone modifiers and the words CLDR names append for them. */
const TONES: Record<string, string> = {
  '\u{1F3FB}': 'light_skin_tone',
  '\u{1F3FC}': 'medium-light_skin_tone',
  '\u{1F3FD}': 'medium_skin_tone',
  '\u{1F3FE}': 'medium-dark_skin_tone',
  '\u{1F3FF}': 'dark_skin_tone',
};
const TONE = /[\u{1F3FB}-\u{1F3FF}]/gu;

/** CLDR short names, as `emoji.demojize` writes them, without the colons. */
const NAMES: Record<string, string> = {
  '👍': 'thumbs_up',
  '👎': 'thumbs_down',
  '👏': 'clapping_hands',
  '🙌': 'raising_hands',
  '🙏': 'folded_hands',
  '👌': 'OK_hand',
  '✌️': 'victory_hand',
  '🤝': 'handshake',
  '💪': 'flexed_biceps',
  '👋': 'waving_hand',
  '👀': 'eyes',
  '🧠': 'brain',
  '🤔': 'thinking_face',
  '🤯': 'exploding_head',
  '🤷': 'person_shrugging',
  '🤦': 'person_facepalming',
  '😀': 'grinning_face',
  '😃': 'grinning_face_with_big_eyes',
  '😄': 'grinning_face_with_smiling_eyes',
  '😁': 'beaming_face_with_smiling_eyes',
  '😅': 'grinning_face_with_sweat',
  '😂': 'face_with_tears_of_joy',
  '🤣': 'rolling_on_the_floor_laughing',
  '🙂': 'slightly_smiling_face',
  '😉': 'winking_face',
  '😊': 'smiling_face_with_smiling_eyes',
  '😍': 'smiling_face_with_heart-eyes',
  '🥰': 'smiling_face_with_hearts',
  '😎': 'smiling_face_with_sunglasses',
  '🤩': 'star-struck',
  '🥳': 'partying_face',
  '😐': 'neutral_face',
  '😑': 'expressionless_face',
  '🙄': 'face_with_rolling_eyes',
  '😬': 'grimacing_face',
  '😕': 'confused_face',
  '😟': 'worried_face',
  '😮': 'face_with_open_mouth',
  '😲': 'astonished_face',
  '😳': 'flushed_face',
  '😢': 'crying_face',
  '😭': 'loudly_crying_face',
  '😱': 'face_screaming_in_fear',
  '😡': 'enraged_face',
  '😠': 'angry_face',
  '🤬': 'face_with_symbols_on_mouth',
  '😴': 'sleeping_face',
  '🤢': 'nauseated_face',
  '🤮': 'face_vomiting',
  '💀': 'skull',
  '🤖': 'robot',
  '👻': 'ghost',
  '💩': 'pile_of_poo',
  '❤️': 'red_heart',
  '❤': 'red_heart',
  '💔': 'broken_heart',
  '💯': 'hundred_points',
  '🔥': 'fire',
  '✨': 'sparkles',
  '⭐': 'star',
  '🌟': 'glowing_star',
  '🎉': 'party_popper',
  '🎊': 'confetti_ball',
  '🚀': 'rocket',
  '🏆': 'trophy',
  '🥇': '1st_place_medal',
  '🎯': 'direct_hit',
  '💡': 'light_bulb',
  '📌': 'pushpin',
  '📝': 'memo',
  '🐛': 'bug',
  '🐞': 'lady_beetle',
  '⚠️': 'warning',
  '🚨': 'police_car_light',
  '🛑': 'stop_sign',
  '⛔': 'no_entry',
  '🚫': 'prohibited',
  '❗': 'red_exclamation_mark',
  '❓': 'red_question_mark',
  '✅': 'check_mark_button',
  '✔️': 'check_mark',
  '☑️': 'check_box_with_check',
  '❌': 'cross_mark',
  '❎': 'cross_mark_button',
  '➕': 'plus',
  '➖': 'minus',
  '⏳': 'hourglass_not_done',
  '🐢': 'turtle',
  '🐌': 'snail',
  '🤡': 'clown_face',
  '🙈': 'see-no-evil_monkey',
  '🫠': 'melting_face',
  '🫡': 'saluting_face',
};

/** How many emojis the text holds (an emoji sequence counts once). */
export function countEmojis(text: string): number {
  return text.match(EMOJI)?.length ?? 0;
}

/** The text with every emoji replaced by `:its_name:` where the name is known. */
export function demojize(text: string): string {
  return text.replace(EMOJI, (e) => {
    const known = NAMES[e];
    if (known) return `:${known}:`;
    const tones = e.match(TONE);
    const base = NAMES[e.replace(TONE, '')];
    if (!base || !tones || tones.length !== 1) return e;
    return `:${base}_${TONES[tones[0]!]}:`;
  });
}

/** The text with skin-tone modifiers removed from its emojis. */
export function detone(text: string): string {
  return text.replace(EMOJI, (e) => e.replace(TONE, ''));
}
