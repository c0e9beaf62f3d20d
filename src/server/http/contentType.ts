/**
 * JSON endpoints read JSON only. A cross-site page can send exactly three content types without
 * asking the server first (a CORS preflight): `text/plain`, `application/x-www-form-urlencoded`
 * and `multipart/form-data` — what an HTML form or a "simple" fetch sends. A JSON endpoint
 * answers those with 415, so a forged form post can never be read as a JSON body, whatever
 * credentials the browser attaches. Any other type (`application/json`, and others that a
 * cross-site page could only send after a preflight we never approve) is read as JSON, as is a
 * body with no Content-Type at all: the Python SDK sends none.
 *
 * Multipart endpoints (file upload) take `multipart/form-data`; binary ones (OTLP protobuf)
 * keep their own content types and are not checked here.
 */
import { UnsupportedMediaTypeError } from '../errors.js';

const FORM_TYPES = new Set(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data']);

/** Throws 415 when a JSON endpoint's request says its body is a form or plain text. */
export function assertJsonContentType(contentType: string | undefined): void {
  if (!contentType) return;
  const media = contentType.split(';')[0]!.trim().toLowerCase();
  if (FORM_TYPES.has(media)) {
    throw new UnsupportedMediaTypeError(
      `This endpoint reads a JSON body; Content-Type "${media}" is refused (it is what cross-site forms send). Send "application/json", or no Content-Type` +
        (media === 'application/x-www-form-urlencoded'
          ? " (curl's -d alone sends this type: add -H 'Content-Type: application/json')"
          : ''),
    );
  }
}
