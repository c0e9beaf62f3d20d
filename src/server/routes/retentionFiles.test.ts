/**
 * Retention and files over HTTP on a real server with a fixed clock (docs/operations/retention.md
 * "Files"): a file only expired calls referred to goes with them in one sweep; a file a kept
 * call, an object version or a dataset row refers to stays, and so does one nothing refers to.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { CallUpsertBatchReq } from '../../contract/calls.js';
import { testBackends } from '../testing/tempStore.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';

type Item = z.input<typeof CallUpsertBatchReq>['batch'][number];

const DAY_MS = 86_400_000;
const NOW_MS = Date.UTC(2026, 1, 15, 12);
const clock = { nowMicros: () => NOW_MS * 1000 };
let t: TestServer;

const ago = (days: number) => new Date(NOW_MS - days * DAY_MS).toISOString();

/** A value backed by files, as the Weave SDKs store an image. */
const image = (digest: string) => ({
  _type: 'CustomWeaveType',
  weave_type: { type: 'PIL.Image.Image' },
  files: { 'image.png': digest },
  load_op: 'weave:///alice-co/x/op/load_image:abc',
});

/** A call started `days` ago with these inputs and output. */
const call = (project: string, id: string, days: number, inputs: Record<string, unknown>, output: unknown = null): Item[] => [
  { mode: 'start', req: { start: { project_id: project, id, op_name: 'llm', started_at: ago(days), inputs } } },
  { mode: 'end', req: { end: { project_id: project, id, ended_at: ago(days), output, summary: {} } } },
];

async function upload(project: string, text: string): Promise<string> {
  return (await t.alice.client.fileCreate({ project_id: project, file: new File([text], 'image.png') })).digest;
}

const contentStatus = async (project: string, digest: string) =>
  (await t.fetch('/file/content', { json: { project_id: project, digest } })).status;

const fileBytes = async (project: string): Promise<number> => {
  const res = await t.fetch('/project/stats', { json: { project_id: project } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { files_storage_size_bytes: number }).files_storage_size_bytes;
};

for (const backend of testBackends()) {
  describe(`retention of files (${backend.name})`, () => {
    beforeAll(async () => {
      t = await startTestServer({ env: backend.serverEnv, clock });
    });
    afterAll(() => t?.close());

    it('removes a file only expired calls referred to in one sweep, and keeps those a kept call, an object or a dataset row refers to', async () => {
      const p = 'alice-co/ret-files';
      const only = await upload(p, 'only old calls use me');
      const kept = await upload(p, 'a recent call uses me too');
      const byObject = await upload(p, 'an object uses me too');
      const byRow = await upload(p, 'a dataset row uses me too');
      const unused = await upload(p, 'nobody uses me');
      const sizes = { only: 'only old calls use me'.length };

      await t.alice.client.callUpsertBatch({
        batch: [
          // Two old calls refer to `only`, one deep in a list of its inputs, one in its output.
          ...call(p, 'o1', 40, { img: image(only) }),
          ...call(p, 'o2', 35, { q: 'x' }, { images: [{ nested: image(only) }] }),
          ...call(p, 'o3', 40, { img: image(kept) }),
          ...call(p, 'o4', 40, { img: image(byObject) }),
          ...call(p, 'o5', 40, { img: image(byRow) }),
          ...call(p, 'r1', 2, { img: image(kept) }),
        ],
      });
      await t.alice.client.objCreate({ obj: { project_id: p, object_id: 'logo', val: { picture: image(byObject) } } });
      await t.alice.client.tableCreate({ table: { project_id: p, rows: [{ input: 'a' }, { input: 'b', picture: image(byRow) }] } });

      const before = await fileBytes(p);
      for (const d of [only, kept, byObject, byRow, unused]) expect(await contentStatus(p, d)).toBe(200);

      await t.admin.retentionSet({ project_id: p, days: 30 });
      const report = await t.server.retention.sweepNow();
      expect(report).toMatchObject({ calls: 5, files: 1, fileBytes: sizes.only });

      expect(await contentStatus(p, only)).toBe(404);
      for (const d of [kept, byObject, byRow, unused]) expect(await contentStatus(p, d)).toBe(200);
      expect(await fileBytes(p)).toBe(before - sizes.only);

      // Once the recent call expires too, the file it shared goes; the others stay.
      await t.admin.retentionSet({ project_id: p, days: 1 });
      expect(await t.server.retention.sweepNow()).toMatchObject({ calls: 1, files: 1 });
      expect(await contentStatus(p, kept)).toBe(404);
      for (const d of [byObject, byRow, unused]) expect(await contentStatus(p, d)).toBe(200);
      expect(await t.server.retention.sweepNow()).toMatchObject({ calls: 0, files: 0 });
    });

    it('serves a removed file again once it is uploaded again', async () => {
      const p = 'alice-co/ret-files-again';
      const digest = await upload(p, 'back again');
      await t.alice.client.callUpsertBatch({ batch: call(p, 'old', 40, { img: image(digest) }) });
      await t.admin.retentionSet({ project_id: p, days: 30 });
      expect(await t.server.retention.sweepNow()).toMatchObject({ files: 1 });
      expect(await contentStatus(p, digest)).toBe(404);
      expect(await fileBytes(p)).toBe(0);

      expect(await upload(p, 'back again')).toBe(digest);
      const res = await t.fetch('/file/content', { json: { project_id: p, digest } });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('back again');
      expect(await fileBytes(p)).toBe('back again'.length);
      // A new call using it, expired in turn, takes it again.
      await t.alice.client.callUpsertBatch({ batch: call(p, 'old2', 35, { img: image(digest) }) });
      expect(await t.server.retention.sweepNow()).toMatchObject({ files: 1 });
      expect(await contentStatus(p, digest)).toBe(404);
    });
  });
}
