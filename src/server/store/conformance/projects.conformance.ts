/** Conformance suite for ProjectsStore: a project exists once something is written to it, or once it is created. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenStore } from '../../testing/tempStore.js';
import type { Store } from '../Store.js';
import { SECOND, startWrite, T0 } from './callWrites.js';

export function describeProjectsConformance(open: OpenStore): void {
  describe('ProjectsStore conformance', () => {
    let store: Store;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ store, close } = await open());
      await store.calls.writeCalls([
        startWrite('acme/one', 'c1', { startedAt: T0 }),
        startWrite('acme/one', 'c2', { startedAt: T0 + 5 * SECOND }),
        startWrite('acme/two', 'c3', { startedAt: T0 + SECOND }),
        startWrite('beta/three', 'c4', { startedAt: T0 + 2 * SECOND }),
      ]);
    });
    afterAll(() => close());

    const list = async (req: Parameters<Store['projects']['listProjects']>[0]) =>
      (await store.projects.listProjects(req)).sort((a, b) => a.projectId.localeCompare(b.projectId));

    it('lists written projects with call counts and last activity', async () => {
      expect(await list({ entities: 'all' })).toEqual([
        { projectId: 'acme/one', callCount: 2, lastActivity: T0 + 5 * SECOND },
        { projectId: 'acme/two', callCount: 1, lastActivity: T0 + SECOND },
        { projectId: 'beta/three', callCount: 1, lastActivity: T0 + 2 * SECOND },
      ]);
    });

    it('limits the list to the given entities and project ids', async () => {
      expect((await list({ entities: ['acme'] })).map((p) => p.projectId)).toEqual(['acme/one', 'acme/two']);
      expect((await list({ entities: ['nobody'] })).map((p) => p.projectId)).toEqual([]);
      expect((await list({ entities: 'all', projectIds: ['acme/two', 'zeta/none'] })).map((p) => p.projectId)).toEqual(['acme/two']);
    });

    it('does not count deleted calls', async () => {
      await store.calls.deleteCalls({ projectId: 'acme/one', ids: ['c2'], deletedAt: T0 + 9 * SECOND });
      const [one] = await list({ entities: 'all', projectIds: ['acme/one'] });
      expect(one?.callCount).toBe(1);
    });

    it('lists a created project before anything is written to it, once, and leaves written ones alone', async () => {
      await store.projects.createProject('gamma/empty');
      await store.projects.createProject('gamma/empty');
      await store.projects.createProject('acme/two');
      expect(await list({ entities: ['gamma'] })).toEqual([{ projectId: 'gamma/empty', callCount: 0, lastActivity: null }]);
      expect((await list({ entities: 'all', projectIds: ['acme/two'] }))[0]).toMatchObject({ callCount: 1, lastActivity: T0 + SECOND });
    });
  });
}
