import { describe, expect, it } from 'vitest';
import { endpoints, type EndpointName } from '../../contract/endpoints.js';
import { administeredEntities, can, managesUsers, needOf, permission, permissionFor, roleNeeded, type Caller } from './permissions.js';

const caller = (c: Partial<Caller>): Caller => ({ is_admin: false, roles: {}, project_roles: {}, ...c });

describe('roleNeeded', () => {
  it("takes a row's role when it has one", () => {
    expect(roleNeeded('userRoleSet')).toBe('admin');
    expect(roleNeeded('annotationQueueItemSubmit')).toBe('annotator');
    expect(roleNeeded('feedbackCreate')).toBe('annotator');
  });

  it('reads public rows as open to anyone', () => {
    expect(roleNeeded('health')).toBe('public');
    expect(roleNeeded('sessionCreate')).toBe('public');
  });

  it('reads a row without a role as viewer for GET and member otherwise', () => {
    expect(needOf({ method: 'GET' })).toBe('viewer');
    expect(needOf({ method: 'POST' })).toBe('member');
    expect(needOf({ method: 'DELETE' })).toBe('member');
    expect(needOf({ method: 'POST', role: 'signed-in' })).toBe('signed-in');
    expect(needOf({ method: 'GET', public: true })).toBe('public');
  });

  it('falls back to viewer for GET rows and member for the rest only where a row has no role', () => {
    for (const name of Object.keys(endpoints) as EndpointName[]) {
      const e = endpoints[name] as { role?: string; public?: boolean; method: string };
      if (e.public) continue;
      expect(roleNeeded(name), name).toBe(e.role ?? (e.method === 'GET' ? 'viewer' : 'member'));
    }
  });
});

describe('permission', () => {
  const acme = (role: Caller['roles'][string]) => caller({ roles: { acme: role } });

  it('lets a viewer read and refuses writes, naming the role needed', () => {
    const v = acme('viewer');
    expect(permission(v, 'tagsList', 'acme/p')).toEqual({ allowed: true, need: 'viewer', reason: null });
    expect(permission(v, 'annotationQueueDelete', 'acme/p')).toEqual({ allowed: false, need: 'member', reason: 'Needs member role' });
    expect(permission(v, 'feedbackCreate', 'acme/p')).toEqual({ allowed: false, need: 'annotator', reason: 'Needs annotator role' });
  });

  it('lets an annotator answer queues and write feedback but not delete or create queues', () => {
    const a = acme('annotator');
    expect(can(a, 'annotationQueueItemSubmit', 'acme/p')).toBe(true);
    expect(can(a, 'feedbackCreate', 'acme/p')).toBe(true);
    expect(can(a, 'annotationQueueDelete', 'acme/p')).toBe(false);
    expect(can(a, 'annotationQueueCreate', 'acme/p')).toBe(false);
  });

  it('lets a member write but not change roles; an entity admin changes roles in their entity only', () => {
    expect(can(acme('member'), 'annotationQueueDelete', 'acme/p')).toBe(true);
    expect(can(acme('member'), 'userRoleSet', 'acme')).toBe(false);
    expect(can(acme('admin'), 'userRoleSet', 'acme')).toBe(true);
    expect(can(acme('admin'), 'userRoleSet', 'other')).toBe(false);
  });

  it('applies a per-project override to that project only', () => {
    const c = caller({ roles: { acme: 'member' }, project_roles: { 'acme/secret': 'viewer', 'acme/labels': 'admin' } });
    expect(can(c, 'annotationQueueDelete', 'acme/secret')).toBe(false);
    expect(can(c, 'annotationQueueDelete', 'acme/other')).toBe(true);
    expect(can(c, 'userRoleSet', 'acme/labels')).toBe(true);
    expect(can(c, 'userRoleSet', 'acme')).toBe(false);
  });

  it('refuses everything outside the caller entities and allows everything to global admins', () => {
    expect(permission(acme('admin'), 'tagsList', 'other/p')).toEqual({ allowed: false, need: 'viewer', reason: 'Needs viewer role' });
    expect(can(caller({ is_admin: true }), 'userRoleSet', 'anything')).toBe(true);
  });

  it('lets public endpoints through for anyone and refuses the rest to a signed-out caller', () => {
    expect(can(caller({}), 'health', 'acme/p')).toBe(true);
    expect(can(null, 'tagsList', 'acme/p')).toBe(false);
    expect(can(null, 'health', 'acme/p')).toBe(true);
  });
});

describe('permissionFor', () => {
  it("lets anyone signed in call a 'signed-in' endpoint, whatever their roles", () => {
    expect(permissionFor(caller({}), 'signed-in', 'acme/p')).toEqual({ allowed: true, need: 'signed-in', reason: null });
    expect(permissionFor(null, 'signed-in', 'acme/p')).toEqual({ allowed: false, need: 'signed-in', reason: 'Sign in first' });
  });
});

describe('administeredEntities', () => {
  it('lists the entities the caller is admin of, or all for a global admin', () => {
    expect(administeredEntities(caller({ roles: { b: 'admin', a: 'admin', c: 'member' } }))).toEqual(['a', 'b']);
    expect(administeredEntities(caller({ is_admin: true }))).toBe('all');
  });

  it('shows the Users section to global and entity admins only', () => {
    expect(managesUsers(caller({ is_admin: true }))).toBe(true);
    expect(managesUsers(caller({ roles: { a: 'admin' } }))).toBe(true);
    expect(managesUsers(caller({ roles: { a: 'member' }, project_roles: { 'a/p': 'admin' } }))).toBe(false);
  });
});
