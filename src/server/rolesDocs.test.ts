/**
 * docs/security/roles.md's endpoint table is the contract's: every endpoint with its least role,
 * rewritten by `npm run docs:roles`. And a non-public endpoint cannot be declared without a role.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { endpoints, type EndpointDef } from '../contract/endpoints.js';
import { renderedRolesDoc, ROLES_DOC } from './rolesDocs.js';

describe('docs/security/roles.md', () => {
  it('is what the endpoint table says (npm run docs:roles rewrites it)', () => {
    const doc = readFileSync(ROLES_DOC, 'utf8');
    expect(doc).toBe(renderedRolesDoc(doc));
  });

  it('lists every endpoint, each non-public one with a role', () => {
    const doc = readFileSync(ROLES_DOC, 'utf8');
    for (const [name, e] of Object.entries(endpoints as Record<string, EndpointDef>)) {
      expect(doc).toContain(`| \`${name}\` | ${e.method} |`);
      if (!e.public) expect(e.role, name).toMatch(/^(viewer|annotator|member|admin|signed-in)$/);
    }
  });
});
