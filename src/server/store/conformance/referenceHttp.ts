/**
 * HTTP for the suites that port the reference's own tests (reference*.conformance.ts): bodies
 * posted the way its Python client posts them (testing/pythonClient.ts), fresh projects per test.
 */
import { expect } from 'vitest';
import { pyPost, type PyJson } from '../../testing/pythonClient.js';
import type { TestServer } from '../../testing/testServer.js';

export interface ReferenceHttp {
  /** A fresh project of alice's, `<entity>/<prefix>-<n>`. */
  project(prefix: string): string;
  /** Status and parsed body (JSON lines as a list). */
  post(path: string, body: unknown): Promise<{ status: number; body: PyJson }>;
  /** The body of a 200 answer; anything else fails the test, showing the body. */
  ok(path: string, body: unknown): Promise<PyJson>;
}

export function referenceHttp(t: TestServer): ReferenceHttp {
  let n = 0;
  const post = async (path: string, body: unknown) => {
    const res = await pyPost(t, path, body);
    return { status: res.status, body: res.body };
  };
  return {
    project: (prefix) => `${t.alice.entity}/${prefix}-${++n}`,
    post,
    ok: async (path, body) => {
      const res = await post(path, body);
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
      return res.body;
    },
  };
}
