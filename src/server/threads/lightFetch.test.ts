/** The request threads' lighter Request and Response behave as undici's where the app can tell. */
import { describe, expect, it } from 'vitest';
import { LightResponse, threadRequest, wholeBody } from './lightFetch.js';

describe('threadRequest', () => {
  const signal = new AbortController().signal;
  const req = () =>
    threadRequest(
      'http://h/v2/e/p/scores?x=1',
      'POST',
      [
        ['content-type', 'application/json'],
        ['x-a', '1'],
      ],
      signal,
    );

  it('answers url, method, headers and signal, and is a Request', () => {
    const r = req();
    expect(r).toBeInstanceOf(Request);
    expect([r.url, r.method, r.headers.get('x-a'), r.signal]).toEqual(['http://h/v2/e/p/scores?x=1', 'POST', '1', signal]);
  });

  it('builds the real Request for anything else, with the same headers', async () => {
    const r = req();
    r.headers.set('x-b', '2');
    const copy = r.clone();
    expect(copy.headers.get('x-b')).toBe('2');
    expect(r.redirect).toBe('follow');
    expect(r.body).toBeNull();
  });
});

describe('LightResponse', () => {
  it('keeps a text body whole, with undici default content type', () => {
    const res = new LightResponse('hi') as unknown as Response;
    expect(res).toBeInstanceOf(Response);
    const whole = wholeBody(res)!;
    expect(whole.status).toBe(200);
    expect(whole.headers).toEqual([['content-type', 'text/plain;charset=UTF-8']]);
    expect(new TextDecoder().decode(whole.body!)).toBe('hi');
  });

  it('json() answers application/json, keeps status and headers set after it was made', () => {
    const res = LightResponse.json({ a: 1 }, { status: 422 });
    res.headers.set('x-frame-options', 'DENY');
    const whole = wholeBody(res)!;
    expect(whole.status).toBe(422);
    expect(Object.fromEntries(whole.headers)).toEqual({ 'content-type': 'application/json', 'x-frame-options': 'DENY' });
    expect(JSON.parse(new TextDecoder().decode(whole.body!))).toEqual({ a: 1 });
  });

  it('sends a copy of a byte body, so the caller keeps its bytes', () => {
    const bytes = new Uint8Array([1, 2, 3]);
    const whole = wholeBody(new LightResponse(bytes) as unknown as Response)!;
    expect(whole.body).toEqual(bytes);
    expect(whole.body!.buffer).not.toBe(bytes.buffer);
  });

  it('leaves a streamed body, a read body and an undici Response to the stream path', async () => {
    const stream = new ReadableStream({ start: (c) => (c.enqueue(new Uint8Array([1])), c.close()) });
    expect(wholeBody(new LightResponse(stream) as unknown as Response)).toBeNull();
    const read = new LightResponse('text') as unknown as Response;
    expect(await read.text()).toBe('text');
    expect(wholeBody(read)).toBeNull();
    expect(wholeBody(Response.error())).toBeNull();
  });

  it('refuses what undici refuses', () => {
    expect(() => new LightResponse('x', { status: 99 })).toThrow(RangeError);
    expect(() => new LightResponse('x', { status: 204 })).toThrow(TypeError);
    expect(wholeBody(new LightResponse(null, { status: 204 }) as unknown as Response)).toEqual({ status: 204, headers: [], body: null });
  });
});
