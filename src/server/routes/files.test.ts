import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bytesDigest } from '../domain/objects/digests.js';
import { projectNames, useTestServer } from '../testing/serverSuite.js';
import { startTestServer } from '../testing/testServer.js';

const t = useTestServer();

const project = projectNames('alice-co/files');
const HELLO = 'uU0nuZNNPgilLlLX2n2rXsSE7XN6U4DukIj3rOLvzek';

/** A multipart upload as the Python SDK sends it (to `/files/create` unless told otherwise). */
async function upload(fields: Record<string, string | Blob>, path = '/files/create'): Promise<{ status: number; body: any }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const res = await t.fetch(path, { method: 'POST', body: form });
  return { status: res.status, body: await res.json() };
}

const content = (project_id: string, digest: string, path = '/files/content') =>
  t.fetch(path, { method: 'POST', body: JSON.stringify({ project_id, digest }) });

describe('POST /file/create', () => {
  it('stores the file under its content digest (typed client, as the TypeScript SDK posts)', async () => {
    const project_id = project();
    const res = await t.alice.client.fileCreate({ project_id, file: new File(['hello world'], 'obj.py') });
    expect(res).toEqual({ digest: HELLO });
    const again = await t.alice.client.fileCreate({ project_id, file: new Blob(['hello world']) });
    expect(again).toEqual({ digest: HELLO });
  });

  it('answers 409 when expected_digest differs', async () => {
    const project_id = project();
    expect((await upload({ project_id, expected_digest: HELLO, file: new File(['hello world'], 'a') }, '/file/create')).status).toBe(200);
    expect((await upload({ project_id, expected_digest: HELLO, file: new File(['other'], 'a') }, '/file/create')).status).toBe(409);
  });

  it('answers 422 without a file part or a project, and for a JSON body', async () => {
    const project_id = project();
    const noFile = await upload({ project_id, file: 'just text' }, '/file/create');
    expect(noFile.status).toBe(422);
    expect(noFile.body.detail[0].loc).toEqual(['body', 'file']);
    expect((await upload({ file: new File(['x'], 'x') }, '/file/create')).status).toBe(422);
    expect((await t.fetch('/file/create', { method: 'POST', json: { project_id } })).status).toBe(422);
  });

  it("answers 403 for another entity's project", async () => {
    expect((await upload({ project_id: 'bob-co/p', file: new File(['x'], 'x') }, '/file/create')).status).toBe(403);
  });

  it('answers 413 above the file size limit', async () => {
    const small = await startTestServer({ env: { WEFT_MAX_FILE_BYTES: '4096' } });
    try {
      const form = new FormData();
      form.append('project_id', 'alice-co/big');
      form.append('file', new File([new Uint8Array(10_000)], 'big.bin'));
      expect((await small.fetch('/files/create', { method: 'POST', body: form })).status).toBe(413);
    } finally {
      await small.close();
    }
  });
});

describe('POST /files/create', () => {
  it('is /file/create under the name the Python SDK uses, and round-trips 20 MB intact', async () => {
    const project_id = project();
    const bytes = randomBytes(20 * 1024 * 1024 + 123);
    const res = await upload({ project_id, file: new File([bytes], 'weights.bin') });
    expect(res).toEqual({ status: 200, body: { digest: bytesDigest(bytes) } });
    const back = await content(project_id, res.body.digest);
    expect(back.headers.get('content-type')).toBe('application/octet-stream');
    expect(back.headers.get('content-length')).toBe(String(bytes.length));
    const received = Buffer.from(await back.arrayBuffer());
    expect(createHash('sha256').update(received).digest('hex')).toBe(createHash('sha256').update(bytes).digest('hex'));
  }, 60_000);
});

describe('POST /file/content', () => {
  it('returns the bytes; 404 for unknown digests and other projects', async () => {
    const project_id = project();
    await t.alice.client.fileCreate({ project_id, file: new File(['hello world'], 'a.txt') });
    const res = await t.alice.client.fileContent({ project_id, digest: HELLO });
    expect(await res.text()).toBe('hello world');
    expect((await content(project_id, 'unknown', '/file/content')).status).toBe(404);
    expect((await content(project(), HELLO, '/file/content')).status).toBe(404);
    expect((await content('bob-co/p', HELLO, '/file/content')).status).toBe(403);
    expect((await t.fetch('/file/content', { method: 'POST', json: { project_id } })).status).toBe(422);
  });
});

describe('POST /files/content', () => {
  it('is /file/content under the name the Python SDK uses', async () => {
    const project_id = project();
    await upload({ project_id, file: new File(['hello world'], 'a.txt') });
    expect(await (await content(project_id, HELLO)).text()).toBe('hello world');
  });
});

describe('POST /files/query_stats', () => {
  it('sums the stored bytes of the project, each content once', async () => {
    const project_id = project();
    await upload({ project_id, file: new File(['hello world'], 'a') });
    await upload({ project_id, file: new File(['hello world'], 'b') });
    await upload({ project_id, file: new File(['12345'], 'c') });
    expect(await t.alice.client.filesQueryStats({ project_id })).toEqual({ total_size_bytes: 16 });
    expect(await t.alice.client.filesQueryStats({ project_id: project() })).toEqual({ total_size_bytes: 0 });
    expect((await t.fetch('/files/query_stats', { method: 'POST', json: { project_id: 'bob-co/p' } })).status).toBe(403);
  });
});
