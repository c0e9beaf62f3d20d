/** An error answer from the service, with its status and a readable message. */
export class HttpError extends Error {
  readonly status: number;
  readonly body: unknown;

  constructor(status: number, message: string, body: unknown) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.body = body;
  }

  /** Reads `{reason}` or `{detail:[...]}` bodies into one sentence. */
  static async fromResponse(res: Response): Promise<HttpError> {
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return new HttpError(res.status, describeErrorBody(res.status, body), body);
  }
}

/** Turns an error body into words a person can act on. */
export function describeErrorBody(status: number, body: unknown): string {
  if (body && typeof body === 'object') {
    const b = body as { reason?: unknown; detail?: unknown };
    if (typeof b.reason === 'string') return b.reason;
    if (Array.isArray(b.detail)) {
      return b.detail.map((d: { loc?: unknown[]; msg?: string }) => `${(d.loc ?? []).join('.')}: ${d.msg ?? 'invalid'}`).join('; ');
    }
  }
  if (typeof body === 'string' && body.trim()) return `${status}: ${body.trim().slice(0, 300)}`;
  return `Request failed with status ${status}`;
}
