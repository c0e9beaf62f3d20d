/**
 * @module
 * Requests Node's HTTP parser refuses before the app sees them (a URL or headers past
 * `maxHeaderSize`, malformed request lines, invalid chunk encoding) get the same JSON error
 * body as everything else (`{"reason": ...}`), instead of Node's bare status line.
 */
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/** Answers parser errors on `server` with a JSON reason, then closes the connection. */
export function answerClientErrorsAsJson(server: Server, maxHeaderBytes: number): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const [status, reason] =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, `The request line and headers are larger than ${maxHeaderBytes} bytes (Node's --max-http-header-size)`]
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'The request was not received in time']
          : [400, `Malformed HTTP request (${err.code ?? 'parse error'})`];
    const body = JSON.stringify({ reason });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
