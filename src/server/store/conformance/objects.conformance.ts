/**
 * Conformance suite for ObjectsStore: versions (index, latest, dedup, delete, revive), version
 * selectors, queries, tags and aliases. Every backend's test file calls
 * `describeObjectsConformance(open)` with its own way to open a fresh store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenStore } from '../../testing/tempStore.js';
import type { ObjectWrite, Store } from '../Store.js';

let seq = 0;
/** A write with a unique digest (backends never recompute it) unless one is given. */
const write = (projectId: string, objectId: string, over: Partial<ObjectWrite> = {}): ObjectWrite => ({
  projectId,
  objectId,
  digest: `d${String(++seq).padStart(42, '0')}`,
  kind: 'object',
  baseObjectClass: null,
  leafObjectClass: null,
  valJson: `{"n":${seq},"f":1.0}`,
  sizeBytes: 20,
  wbUserId: 'alice',
  createdAt: 1_700_000_000_000_000 + seq,
  ...over,
});

export function describeObjectsConformance(open: OpenStore): void {
  describe('ObjectsStore conformance', () => {
    let store: Store;
    let close: () => Promise<void>;
    beforeAll(async () => ({ store, close } = await open()));
    afterAll(() => close());

    const versions = async (projectId: string, objectId: string) =>
      (await store.objects.queryObjects({ projectId, filter: { object_ids: [objectId] } })).map((o) => [o.versionIndex, o.isLatest]);

    it('numbers versions in creation order and marks only the newest latest', async () => {
      const [a, b] = [write('e/p1', 'obj'), write('e/p1', 'obj')];
      await store.objects.createObject(a);
      await store.objects.createObject(b);
      expect(await versions('e/p1', 'obj')).toEqual([
        [0, false],
        [1, true],
      ]);
      const read = await store.objects.readObject({ projectId: 'e/p1', objectId: 'obj', version: { digest: a.digest } });
      expect(read).toMatchObject({ valJson: a.valJson, versionIndex: 0, isLatest: false, deletedAt: null, tags: [], aliases: [] });
    });

    it('creating an existing live digest changes nothing', async () => {
      const a = write('e/p2', 'obj');
      await store.objects.createObject(a);
      await store.objects.createObject(write('e/p2', 'obj'));
      await store.objects.createObject({ ...a, createdAt: a.createdAt + 99 });
      expect(await versions('e/p2', 'obj')).toEqual([
        [0, false],
        [1, true],
      ]);
    });

    it('reads a version by digest, index, latest or alias, and answers null for unknown ones', async () => {
      const [a, b] = [write('e/p3', 'obj'), write('e/p3', 'obj')];
      await store.objects.createObject(a);
      await store.objects.createObject(b);
      await store.objects.setAliases({ projectId: 'e/p3', objectId: 'obj', digest: a.digest, aliases: ['prod'], createdAt: 1 });
      const digestOf = async (version: Parameters<Store['objects']['readObject']>[0]['version']) =>
        (await store.objects.readObject({ projectId: 'e/p3', objectId: 'obj', version }))?.digest ?? null;
      expect(await digestOf({ index: 1 })).toBe(b.digest);
      expect(await digestOf({ latest: true })).toBe(b.digest);
      expect(await digestOf({ alias: 'prod' })).toBe(a.digest);
      expect(await digestOf({ alias: 'nope' })).toBeNull();
      expect(await digestOf({ index: 7 })).toBeNull();
      expect(await store.objects.readObject({ projectId: 'e/other', objectId: 'obj', version: { latest: true } })).toBeNull();
    });

    it('metadataOnly leaves the value out', async () => {
      const a = write('e/p4', 'obj');
      await store.objects.createObject(a);
      const read = await store.objects.readObject({
        projectId: 'e/p4',
        objectId: 'obj',
        version: { digest: a.digest },
        metadataOnly: true,
      });
      expect(read?.valJson).toBeNull();
    });

    it('deleting the latest makes the newest survivor latest; deleted versions read with deletedAt', async () => {
      const [a, b, c] = [write('e/p5', 'obj'), write('e/p5', 'obj'), write('e/p5', 'obj')];
      for (const w of [a, b, c]) await store.objects.createObject(w);
      expect(await store.objects.deleteObjects({ projectId: 'e/p5', objectId: 'obj', digests: [c.digest], deletedAt: 42 })).toHaveLength(1);
      expect(await versions('e/p5', 'obj')).toEqual([
        [0, false],
        [1, true],
      ]);
      const gone = await store.objects.readObject({ projectId: 'e/p5', objectId: 'obj', version: { digest: c.digest } });
      expect(gone).toMatchObject({ deletedAt: 42, isLatest: false });
      expect(await store.objects.deleteObjects({ projectId: 'e/p5', objectId: 'obj', digests: [c.digest], deletedAt: 43 })).toEqual([]);
    });

    it('readVersionState answers the index and deletion of the version readObject reads, or null', async () => {
      const [a, b] = [write('e/p8', 'obj'), write('e/p8', 'obj')];
      for (const w of [a, b]) await store.objects.createObject(w);
      await store.objects.setAliases({ projectId: 'e/p8', objectId: 'obj', digest: a.digest, aliases: ['prod'], createdAt: 1 });
      await store.objects.deleteObjects({ projectId: 'e/p8', objectId: 'obj', digests: [b.digest], deletedAt: 77 });
      const state = (version: Parameters<Store['objects']['readVersionState']>[0]['version']) =>
        store.objects.readVersionState({ projectId: 'e/p8', objectId: 'obj', version });
      expect(await state({ digest: a.digest })).toEqual({ versionIndex: 0, deletedAt: null });
      expect(await state({ digest: b.digest })).toEqual({ versionIndex: 1, deletedAt: 77 });
      expect(await state({ alias: 'prod' })).toEqual({ versionIndex: 0, deletedAt: null });
      expect(await state({ latest: true })).toEqual({ versionIndex: 0, deletedAt: null });
      expect(await state({ index: 1 })).toEqual({ versionIndex: 1, deletedAt: 77 });
      expect(await state({ digest: write('e/p8', 'obj').digest })).toBeNull();
      expect(await store.objects.readVersionState({ projectId: 'e/other', objectId: 'obj', version: { digest: a.digest } })).toBeNull();
    });

    it('re-creating a deleted digest revives it as the newest version', async () => {
      const [a, b] = [write('e/p6', 'obj'), write('e/p6', 'obj')];
      await store.objects.createObject(a);
      await store.objects.createObject(b);
      await store.objects.deleteObjects({ projectId: 'e/p6', objectId: 'obj', digests: [a.digest], deletedAt: 5 });
      await store.objects.createObject({ ...a, createdAt: b.createdAt + 1 });
      const revived = await store.objects.readObject({ projectId: 'e/p6', objectId: 'obj', version: { digest: a.digest } });
      expect(revived).toMatchObject({ deletedAt: null, isLatest: true, versionIndex: 2 });
      expect(await versions('e/p6', 'obj')).toEqual([
        [1, false],
        [2, true],
      ]);
    });

    it('reports the versions a delete removed, with their classes, oldest version first', async () => {
      const classes = { baseObjectClass: 'Prompt', leafObjectClass: 'StringPrompt' };
      const [a, b, c] = [write('e/p9', 'obj', classes), write('e/p9', 'obj', classes), write('e/p9', 'obj', classes)];
      for (const w of [a, b, c]) await store.objects.createObject(w);
      const del = (digests: string[] | null, deletedAt: number) =>
        store.objects.deleteObjects({ projectId: 'e/p9', objectId: 'obj', digests, deletedAt });
      // Listed newest first and with an unknown digest: the report follows the versions.
      expect(await del([c.digest, 'unknown', a.digest], 1)).toEqual([
        { digest: a.digest, ...classes },
        { digest: c.digest, ...classes },
      ]);
      expect(await del([a.digest], 2)).toEqual([]);
      expect(await del(null, 3)).toEqual([{ digest: b.digest, ...classes }]);
      const plain = write('e/p9', 'plain');
      await store.objects.createObject(plain);
      expect(await store.objects.deleteObjects({ projectId: 'e/p9', objectId: 'plain', digests: null, deletedAt: 4 })).toEqual([
        { digest: plain.digest, baseObjectClass: null, leafObjectClass: null },
      ]);
    });

    it('deleting every version leaves none latest', async () => {
      await store.objects.createObject(write('e/p7', 'obj'));
      await store.objects.createObject(write('e/p7', 'obj'));
      expect(await store.objects.deleteObjects({ projectId: 'e/p7', objectId: 'obj', digests: null, deletedAt: 9 })).toHaveLength(2);
      expect(await store.objects.readObject({ projectId: 'e/p7', objectId: 'obj', version: { latest: true } })).toBeNull();
      expect(await versions('e/p7', 'obj')).toEqual([]);
    });

    it('queries by kind, class, id and latest, sorted and paged', async () => {
      const p = 'e/q';
      await store.objects.createObject(write(p, 'op1', { kind: 'op' }));
      await store.objects.createObject(write(p, 'ds', { baseObjectClass: 'Dataset', leafObjectClass: 'Dataset' }));
      await store.objects.createObject(write(p, 'ds', { baseObjectClass: 'Dataset', leafObjectClass: 'Dataset' }));
      await store.objects.createObject(write(p, 'model', { baseObjectClass: 'Model', leafObjectClass: 'MyModel' }));
      await store.objects.createObject(write(p, 'plain'));
      const ids = async (query: Omit<Parameters<Store['objects']['queryObjects']>[0], 'projectId'>) =>
        (await store.objects.queryObjects({ projectId: p, ...query })).map((o) => `${o.objectId}:${o.versionIndex}`);
      expect(await ids({})).toEqual(['op1:0', 'ds:0', 'ds:1', 'model:0', 'plain:0']);
      expect(await ids({ filter: { is_op: true } })).toEqual(['op1:0']);
      expect(await ids({ filter: { is_op: false, latest_only: true } })).toEqual(['ds:1', 'model:0', 'plain:0']);
      expect(await ids({ filter: { base_object_classes: ['Model'] } })).toEqual(['model:0']);
      expect(await ids({ filter: { leaf_object_classes: ['MyModel', 'Dataset'] } })).toEqual(['ds:0', 'ds:1', 'model:0']);
      expect(await ids({ filter: { exclude_base_object_classes: ['Dataset'] } })).toEqual(['op1:0', 'model:0', 'plain:0']);
      expect(await ids({ filter: { object_ids: ['plain', 'op1'] } })).toEqual(['op1:0', 'plain:0']);
      expect(await ids({ sortBy: [{ field: 'object_id', direction: 'desc' }] })).toEqual(['plain:0', 'op1:0', 'model:0', 'ds:0', 'ds:1']);
      expect(await ids({ sortBy: [{ field: 'created_at', direction: 'desc' }], limit: 2, offset: 1 })).toEqual(['model:0', 'ds:1']);
      expect(await ids({ offset: 4 })).toEqual(['plain:0']);
    });

    it("breaks created_at ties by version index in created_at's direction", async () => {
      const p = 'e/tie';
      for (let i = 0; i < 3; i++) await store.objects.createObject(write(p, 'tied', { createdAt: 1_700_000_000_000_000 }));
      const order = async (direction: 'asc' | 'desc') =>
        (await store.objects.queryObjects({ projectId: p, sortBy: [{ field: 'created_at', direction }] })).map((o) => o.versionIndex);
      expect(await order('desc')).toEqual([2, 1, 0]);
      expect(await order('asc')).toEqual([0, 1, 2]);
    });

    it('keeps tags as a set per version and lists them project-wide', async () => {
      const [a, b] = [write('e/t', 'obj'), write('e/t', 'obj')];
      await store.objects.createObject(a);
      await store.objects.createObject(b);
      const key = { projectId: 'e/t', objectId: 'obj' };
      await store.objects.addTags({ ...key, digest: a.digest, tags: ['zeta', 'alpha'], createdAt: 1 });
      await store.objects.addTags({ ...key, digest: a.digest, tags: ['alpha'], createdAt: 2 });
      await store.objects.addTags({ ...key, digest: b.digest, tags: ['beta'], createdAt: 3 });
      await store.objects.removeTags({ ...key, digest: a.digest, tags: ['zeta', 'absent'] });
      expect((await store.objects.readObject({ ...key, version: { digest: a.digest } }))?.tags).toEqual(['alpha']);
      expect(await store.objects.listTags('e/t')).toEqual(['alpha', 'beta']);
      const tagged = await store.objects.queryObjects({ projectId: 'e/t', filter: { tags: ['beta', 'nope'] } });
      expect(tagged.map((o) => o.digest)).toEqual([b.digest]);
      await store.objects.deleteObjects({ ...key, digests: [b.digest], deletedAt: 4 });
      expect(await store.objects.listTags('e/t')).toEqual(['alpha']);
    });

    it('moves an alias to the version it is set on, and drops aliases of deleted versions', async () => {
      const [a, b] = [write('e/a', 'obj'), write('e/a', 'obj')];
      await store.objects.createObject(a);
      await store.objects.createObject(b);
      const key = { projectId: 'e/a', objectId: 'obj' };
      await store.objects.setAliases({ ...key, digest: a.digest, aliases: ['prod', 'stable'], createdAt: 1 });
      await store.objects.setAliases({ ...key, digest: b.digest, aliases: ['prod'], createdAt: 2 });
      expect((await store.objects.readObject({ ...key, version: { digest: a.digest } }))?.aliases).toEqual(['stable']);
      expect((await store.objects.readObject({ ...key, version: { digest: b.digest } }))?.aliases).toEqual(['prod']);
      const named = async (aliases: string[]) =>
        (await store.objects.queryObjects({ projectId: 'e/a', filter: { aliases } })).map((o) => o.digest);
      expect(await named(['stable'])).toEqual([a.digest]);
      expect(await named(['latest', 'stable'])).toEqual([a.digest, b.digest]);
      await store.objects.removeAliases({ ...key, aliases: ['stable', 'absent'] });
      expect(await store.objects.listAliases('e/a')).toEqual(['prod']);
      await store.objects.deleteObjects({ ...key, digests: [b.digest], deletedAt: 3 });
      expect(await store.objects.listAliases('e/a')).toEqual([]);
      expect(await store.objects.readObject({ ...key, version: { alias: 'prod' } })).toBeNull();
    });
  });
}
