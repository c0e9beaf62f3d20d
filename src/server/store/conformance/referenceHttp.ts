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
  /**
   * GET or DELETE with query parameters (a list repeats its key), as the client sends the v2
   * reads and deletes: no body. 200 or the test fails; JSON lines read as a list.
   */
  okQuery(method: 'GET' | 'DELETE', path: string, params?: Record<string, string | number | string[]>): Promise<PyJson>;
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
    okQuery: async (method, path, params = {}) => {
      const qs = new URLSearchParams();
      for (const [k, v] of Object.entries(params)) for (const one of Array.isArray(v) ? v : [v]) qs.append(k, String(one));
      const q = qs.toString();
      const res = await t.fetch(q ? `${path}?${q}` : path, { method, headers: { authorization: t.alice.authHeader } });
      const text = await res.text();
      expect(res.status, `${method} ${path}: ${text}`).toBe(200);
      const lines = res.headers.get('content-type')?.includes('jsonl') || res.headers.get('content-type')?.includes('ndjson');
      return lines
        ? text
            .split('\n')
            .filter((l) => l.trim() !== '')
            .map((l) => JSON.parse(l) as PyJson)
        : (JSON.parse(text) as PyJson);
    },
  };
}
