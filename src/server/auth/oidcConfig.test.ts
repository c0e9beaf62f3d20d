/** WEFT_OIDC_* settings: defaults, and a start-up error naming the setting for each mistake. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { parseRoleMap } from './oidcConfig.js';

const base = { WEFT_OIDC_ISSUER: 'https://login.example.com/realms/acme', WEFT_OIDC_CLIENT_ID: 'weft' };
const oidc = (env: Record<string, string>) => loadConfig({ WEFT_DATA_DIR: '/tmp/x', ...env }).oidc;

describe('single sign-on settings', () => {
  it('is off without an issuer, with defaults otherwise', () => {
    expect(oidc({})).toBeNull();
    expect(oidc(base)).toMatchObject({
      clientSecret: null,
      name: 'login.example.com',
      scopes: 'openid email profile',
      redirectBase: null,
      rolesClaim: null,
      roleMap: [],
      linkByEmail: false,
      only: false,
      breakGlass: ['admin'],
    });
  });

  it('refuses plain http except for a loopback issuer', () => {
    expect(() => oidc({ ...base, WEFT_OIDC_ISSUER: 'http://login.example.com' })).toThrow(/WEFT_OIDC_ISSUER must use https/);
    for (const host of ['127.0.0.1:9000', '[::1]:9000', 'localhost:9000']) {
      expect(oidc({ ...base, WEFT_OIDC_ISSUER: `http://${host}` })?.issuer.href).toBe(`http://${host}/`);
    }
  });

  it('names the setting that is wrong or missing', () => {
    expect(() => oidc({ WEFT_OIDC_ISSUER: base.WEFT_OIDC_ISSUER })).toThrow(/WEFT_OIDC_CLIENT_ID/);
    expect(() => oidc({ WEFT_OIDC_ONLY: '1' })).toThrow(/WEFT_OIDC_ONLY needs WEFT_OIDC_ISSUER/);
    expect(() => oidc({ ...base, WEFT_OIDC_ONLY: 'yes' })).toThrow(/WEFT_OIDC_ONLY must be 1 or 0/);
    expect(() => oidc({ ...base, WEFT_OIDC_ONLY: '1', WEFT_OIDC_BREAK_GLASS: ' , ' })).toThrow(/WEFT_OIDC_BREAK_GLASS/);
    expect(() => oidc({ ...base, WEFT_OIDC_SCOPES: 'email profile' })).toThrow(/must include "openid"/);
    expect(() => oidc({ ...base, WEFT_OIDC_ROLE_MAP: 'a=acme:admin' })).toThrow(/needs WEFT_OIDC_ROLES_CLAIM/);
    expect(() => oidc({ ...base, WEFT_OIDC_ROLES_CLAIM: 'groups' })).toThrow(/needs WEFT_OIDC_ROLE_MAP/);
    expect(() => oidc({ ...base, WEFT_OIDC_REDIRECT_BASE: 'weft.example.com' })).toThrow(
      /WEFT_OIDC_REDIRECT_BASE must be an http\(s\) URL/,
    );
  });

  it('parses the role map, with ";" when values hold commas', () => {
    expect(parseRoleMap('acme-admins=acme:admin, acme-support=acme/support:annotator')).toEqual([
      { value: 'acme-admins', scope: 'acme', role: 'admin' },
      { value: 'acme-support', scope: 'acme/support', role: 'annotator' },
    ]);
    expect(parseRoleMap('cn=dev,ou=groups,dc=acme=acme:member; /staff=beta:viewer')).toEqual([
      { value: 'cn=dev,ou=groups,dc=acme', scope: 'acme', role: 'member' },
      { value: '/staff', scope: 'beta', role: 'viewer' },
    ]);
    expect(() => parseRoleMap('acme-admins=acme:owner')).toThrow(/role "owner", not one of viewer, annotator, member, admin/);
    expect(() => parseRoleMap('acme-admins=acme')).toThrow(/is not value=scope:role/);
    expect(() => parseRoleMap('x=a/b/c:member')).toThrow(/not an entity or entity\/project/);
  });
});
