/**
 * Media found in a call's inputs and outputs (docs/media.md): data: URIs, OpenAI and Anthropic
 * image, audio and document parts (base64 or URL), and the Weave SDKs' Content, Image and Audio
 * objects (`CustomWeaveType` values whose bytes are files of the project).
 */

export type MediaKind = 'image' | 'audio' | 'pdf';

/** Where the bytes are: in the value (a data: URI), at a URL the page only links to, or a project file. */
export type MediaSource =
  | { type: 'data'; uri: string }
  | { type: 'url'; url: string }
  | { type: 'file'; digest: string; metadataDigest: string | null; name: string };

export interface MediaItem {
  kind: MediaKind;
  /** MIME type when known (`image/png`); a file's comes from its metadata. */
  mimetype: string | null;
  source: MediaSource;
  /** Path of the value, `inputs.messages.0.content.1`. */
  path: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** The Weave SDKs' type names for their media objects (weave/type_wrappers/Content, weave/type_handlers). */
const CONTENT_TYPE = 'weave.type_wrappers.Content.content.Content';
const IMAGE_TYPE = 'PIL.Image.Image';
const AUDIO_TYPES = new Set(['wave.Wave_read', 'weave.type_wrappers.Audio.Audio', 'weave.type_handlers.Audio.audio.Audio']);

function kindOfMime(mime: string): MediaKind | null {
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('audio/')) return 'audio';
  return mime === 'application/pdf' ? 'pdf' : null;
}

/** `data:<mime>[;…],…` of a media type, as an item. */
function dataUri(v: unknown, path: string): MediaItem | null {
  const s = str(v);
  if (!s?.startsWith('data:')) return null;
  const mime = s.slice(5, s.search(/[;,]/)).toLowerCase();
  const kind = kindOfMime(mime);
  return kind ? { kind, mimetype: mime, source: { type: 'data', uri: s }, path } : null;
}

/** A URL or data: URI: only https and http URLs are linked, never other schemes (javascript:). */
function uriItem(v: unknown, kind: MediaKind, path: string): MediaItem | null {
  const s = str(v);
  if (!s) return null;
  if (s.startsWith('data:')) return dataUri(s, path);
  return /^https?:\/\//i.test(s) ? { kind, mimetype: null, source: { type: 'url', url: s }, path } : null;
}

const base64Item = (data: unknown, mime: string, path: string): MediaItem | null => {
  const s = str(data);
  const kind = kindOfMime(mime);
  return s && kind ? { kind, mimetype: mime, source: { type: 'data', uri: `data:${mime};base64,${s}` }, path } : null;
};

const AUDIO_FORMATS: Record<string, string> = {
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  flac: 'audio/flac',
  opus: 'audio/ogg',
  pcm16: 'audio/L16',
};

/** The media a single value stands for, or null (not looking inside it). */
export function mediaOf(v: unknown, path: string): MediaItem | null {
  if (typeof v === 'string') return dataUri(v, path);
  if (!isObj(v)) return null;
  // The SDKs' objects: bytes in the project's files.
  if (v._type === 'CustomWeaveType' && isObj(v.weave_type) && isObj(v.files)) {
    const type = v.weave_type.type;
    const files = Object.entries(v.files).filter((e): e is [string, string] => typeof e[1] === 'string');
    if (type === CONTENT_TYPE) {
      const content = files.find(([name]) => name === 'content');
      const meta = files.find(([name]) => name === 'metadata.json');
      if (content)
        return {
          kind: 'image',
          mimetype: null,
          source: { type: 'file', digest: content[1], metadataDigest: meta?.[1] ?? null, name: 'content' },
          path,
        };
    }
    if (type === IMAGE_TYPE || (typeof type === 'string' && AUDIO_TYPES.has(type))) {
      const [name, digest] = files[0] ?? [];
      if (name && digest) {
        const ext = name.split('.').pop()!.toLowerCase();
        const mime = type === IMAGE_TYPE ? `image/${ext === 'jpg' ? 'jpeg' : ext}` : ext === 'mp3' ? 'audio/mpeg' : `audio/${ext}`;
        return { kind: kindOfMime(mime)!, mimetype: mime, source: { type: 'file', digest, metadataDigest: null, name }, path };
      }
    }
    return null;
  }
  // OpenAI chat: {type:'image_url', image_url:{url}}; Responses: {type:'input_image', image_url}.
  if (v.type === 'image_url') return uriItem(isObj(v.image_url) ? v.image_url.url : v.image_url, 'image', path);
  if (v.type === 'input_image') return uriItem(v.image_url, 'image', path);
  // OpenAI audio in: {type:'input_audio', input_audio:{data, format}}; out: message.audio {data, format?}.
  if (v.type === 'input_audio' && isObj(v.input_audio))
    return base64Item(v.input_audio.data, AUDIO_FORMATS[String(v.input_audio.format)] ?? 'audio/wav', path);
  // OpenAI files: {type:'file', file:{file_data: data URI, filename}}.
  if (v.type === 'file' && isObj(v.file)) return dataUri(v.file.file_data, path);
  // Anthropic: {type:'image'|'document', source:{type:'base64', media_type, data} | {type:'url', url}}.
  if ((v.type === 'image' || v.type === 'document') && isObj(v.source)) {
    const kind: MediaKind = v.type === 'image' ? 'image' : 'pdf';
    if (v.source.type === 'base64')
      return base64Item(v.source.data, str(v.source.media_type) ?? (kind === 'pdf' ? 'application/pdf' : 'image/png'), path);
    if (v.source.type === 'url') return uriItem(v.source.url, kind, path);
  }
  return null;
}

/** OpenAI's reply audio (`message.audio = {id, data, transcript}`): wav unless said otherwise. */
export function replyAudio(message: Obj, path: string): MediaItem | null {
  const audio = message.audio;
  return isObj(audio) && typeof audio.data === 'string'
    ? base64Item(audio.data, AUDIO_FORMATS[String(audio.format)] ?? 'audio/wav', path)
    : null;
}

/**
 * Every media item in a value, in document order, at most `max`; the walk visits a bounded
 * number of values, so a big payload costs no more than its first part.
 */
export function findMedia(value: unknown, root: string, max = 20): MediaItem[] {
  const found: MediaItem[] = [];
  let budget = 20_000;
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length && found.length < max && budget-- > 0) {
    const [v, path] = stack.pop()!;
    const item = mediaOf(v, path) ?? (isObj(v) ? replyAudio(v, `${path}.audio`) : null);
    if (item) {
      found.push(item);
      continue;
    }
    if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${path}.${i}`]);
    else if (isObj(v)) {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) stack.push([v[keys[i]!], `${path}.${keys[i]}`]);
    }
  }
  return found;
}
