/**
 * File logic above the store (docs/api/core.md §3.6): the content digest, `expected_digest`, the
 * stored name, chunking for storage, and streaming the bytes back.
 */
import { ConflictError, NotFoundError } from '../../errors.js';
import type { Store } from '../../store/Store.js';
import { bytesDigest } from './digests.js';

/** Stored chunk size: big enough for few rows, small enough to stream a large file evenly. */
export const FILE_CHUNK_BYTES = 1024 * 1024;

/** file/create: idempotent by content; the part's filename is kept (else `<unnamed_file>`). */
export async function createFile(
  store: Store,
  req: { projectId: string; file: Blob; expectedDigest?: string | null; now: number },
): Promise<{ digest: string }> {
  // The multipart parser has already buffered the part; this is the one copy we hash and store.
  const bytes = new Uint8Array(await req.file.arrayBuffer());
  const digest = bytesDigest(bytes);
  if (req.expectedDigest && req.expectedDigest !== digest) {
    throw new ConflictError(`Digest mismatch for file: expected ${req.expectedDigest}, computed ${digest}`);
  }
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.byteLength; at += FILE_CHUNK_BYTES) chunks.push(bytes.subarray(at, at + FILE_CHUNK_BYTES));
  const name = req.file instanceof File && req.file.name ? req.file.name : '<unnamed_file>';
  await store.files.createFile({ projectId: req.projectId, digest, name, chunks, createdAt: req.now });
  return { digest };
}

/** file/content: the bytes as application/octet-stream, streamed chunk by chunk; 404 when unknown. */
export async function fileContentResponse(store: Store, req: { projectId: string; digest: string }): Promise<Response> {
  const size = await store.files.fileSize(req);
  if (size === null) throw new NotFoundError(`File ${req.digest} not found`);
  const chunks = store.files.readFile(req)[Symbol.asyncIterator]();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await chunks.return?.();
    },
  });
  return new Response(body, { headers: { 'content-type': 'application/octet-stream', 'content-length': String(size) } });
}
