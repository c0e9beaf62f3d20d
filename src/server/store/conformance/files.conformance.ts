/**
 * Conformance suite for FilesStore: chunked bytes read back in order, idempotent creation,
 * sizes and project totals. Every backend's test file calls `describeFilesConformance(open)`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenStore } from '../../testing/tempStore.js';
import type { Store } from '../Store.js';

const bytes = (text: string) => new TextEncoder().encode(text);

export function describeFilesConformance(open: OpenStore): void {
  describe('FilesStore conformance', () => {
    let store: Store;
    let close: () => Promise<void>;
    beforeAll(async () => ({ store, close } = await open()));
    afterAll(() => close());

    const read = async (projectId: string, digest: string) => {
      const parts: Uint8Array[] = [];
      for await (const chunk of store.files.readFile({ projectId, digest })) parts.push(chunk);
      return Buffer.concat(parts).toString();
    };

    it('returns the chunks in order', async () => {
      await store.files.createFile({
        projectId: 'e/f',
        digest: 'abc',
        name: 'a.txt',
        chunks: [bytes('hel'), bytes('lo '), bytes('world')],
        createdAt: 1,
      });
      expect(await read('e/f', 'abc')).toBe('hello world');
      expect(await store.files.fileSize({ projectId: 'e/f', digest: 'abc' })).toBe(11);
    });

    it('keeps the first copy of a digest', async () => {
      await store.files.createFile({ projectId: 'e/f', digest: 'abc', name: 'b.txt', chunks: [bytes('hello world')], createdAt: 2 });
      expect(await read('e/f', 'abc')).toBe('hello world');
    });

    it('stores an empty file', async () => {
      await store.files.createFile({ projectId: 'e/f', digest: 'empty', name: 'e', chunks: [], createdAt: 3 });
      expect(await store.files.fileSize({ projectId: 'e/f', digest: 'empty' })).toBe(0);
      expect(await read('e/f', 'empty')).toBe('');
    });

    it('answers nothing for unknown digests and other projects', async () => {
      expect(await store.files.fileSize({ projectId: 'e/g', digest: 'abc' })).toBeNull();
      expect(await read('e/g', 'abc')).toBe('');
    });

    it('sums the sizes of a project', async () => {
      expect(await store.files.totalSize('e/f')).toBe(11);
      expect(await store.files.totalSize('e/none')).toBe(0);
    });
  });
}
