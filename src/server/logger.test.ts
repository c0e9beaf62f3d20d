/** The logger's second line of defence: credential fields are redacted whatever a call site logs. */
import { Writable } from 'node:stream';
import { expect, it } from 'vitest';
import { createLogger } from './logger.js';

it('redacts passwords, keys, cookies and authorization headers, and keeps the rest', () => {
  let out = '';
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      out += chunk.toString();
      done();
    },
  });
  const log = createLogger('debug', { format: 'json', destination });
  log.warn('careless', {
    password: 'secret-1',
    apiKey: 'secret-2',
    api_key: 'secret-3',
    authorization: 'Basic secret-4',
    cookie: 'weft_session=secret-5',
    headers: {
      authorization: 'Bearer secret-6',
      cookie: 'secret-7',
      'wandb-api-key': 'secret-8',
      'set-cookie': 'secret-9',
      accept: 'text/plain',
    },
    project: 'alice-co/p',
  });
  log.child({ job_id: 'j1' }).error('failed', new Error('boom', { cause: new Error('underneath') }), { request_id: 'r1' });
  const [warn, error] = out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(out).not.toMatch(/secret-\d/);
  expect(warn).toMatchObject({
    level: 'warn',
    msg: 'careless',
    password: '[redacted]',
    project: 'alice-co/p',
    headers: { accept: 'text/plain' },
  });
  expect(error).toMatchObject({ level: 'error', msg: 'failed', job_id: 'j1', request_id: 'r1', err: { message: 'boom: underneath' } });
  expect((error!.err as { stack: string }).stack).toContain('underneath');
});
