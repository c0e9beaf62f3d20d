/**
 * Streams an async iterable as newline-delimited JSON, written as rows are read. Rows are
 * gathered into ~64 KiB chunks; `pull` makes the stream follow the client's pace.
 *
 * The first row is read before the answer starts, so an error raised while preparing the
 * query (a bad field, say) still becomes a proper error status instead of a broken 200.
 *
 * An error after the 200 has started cannot change the status any more. It is passed to
 * `onError`, which logs it and aborts the connection (returning true), so the chunked body
 * never gets its terminating chunk and the client sees a failed transfer ("terminated",
 * "premature close") rather than a short stream it could take for the whole answer. Left to
 * @hono/node-server, a stream error is written into the body as "Error: <message>" followed
 * by a clean end: a complete-looking answer with a non-JSON last line and an internal message.
 */
const CHUNK_BYTES = 64 * 1024;

export async function jsonLinesResponse(
  rows: AsyncIterable<unknown>,
  accept?: string,
  /** Reports the error; returns true when it aborted the transfer itself. */
  onError: (err: unknown) => boolean = () => false,
): Promise<Response> {
  const iterator = rows[Symbol.asyncIterator]();
  const first = await iterator.next();
  const encoder = new TextEncoder();
  let pending: IteratorResult<unknown> | null = first;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk = '';
      try {
        while (chunk.length < CHUNK_BYTES) {
          const next = pending ?? (await iterator.next());
          pending = null;
          if (next.done) {
            if (chunk) controller.enqueue(encoder.encode(chunk));
            controller.close();
            return;
          }
          chunk += `${JSON.stringify(next.value)}\n`;
        }
        controller.enqueue(encoder.encode(chunk));
      } catch (err) {
        if (onError(err)) controller.close();
        else controller.error(err);
      }
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  const type = accept?.includes('application/x-ndjson') ? 'application/x-ndjson' : 'application/jsonl';
  return new Response(stream, { status: 200, headers: { 'content-type': type } });
}
