import { describe, expect, it } from 'vitest';
import { claimValues, roleFromGroups, safeNext } from './oidc';

describe('OIDC claims to roles', () => {
  it('reads a claim as a list, through a dotted path, from an array or a space- or comma-separated string', () => {
    const claims = { groups: ['dispatch', 7, 'x'], realm_access: { roles: ['admin'] }, scope_roles: 'viewer manager', none: null };
    expect(claimValues(claims, 'groups')).toEqual(['dispatch', 'x']);
    expect(claimValues(claims, 'realm_access.roles')).toEqual(['admin']);
    expect(claimValues(claims, 'scope_roles')).toEqual(['viewer', 'manager']);
    expect(claimValues(claims, 'missing')).toBeUndefined();
    expect(claimValues(claims, 'none')).toBeUndefined();
    // Present but not a list (a number): no groups, and no second look in userinfo.
    expect(claimValues(claims, 'groups.length')).toEqual([]);
  });

  it('the highest mapped role wins; unmapped groups give nothing', () => {
    const map = new Map([
      ['fleet-dispatch', 'dispatcher'],
      ['fleet-admins', 'admin'],
      ['everyone', 'viewer'],
    ] as const);
    expect(roleFromGroups(['everyone', 'fleet-dispatch'], map)).toBe('dispatcher');
    expect(roleFromGroups(['fleet-admins', 'everyone'], map)).toBe('admin');
    expect(roleFromGroups(['admin', 'sales'], map)).toBeNull();
    expect(roleFromGroups([], map)).toBeNull();
  });

  it('without a mapping, claim values named like roles are those roles', () => {
    expect(roleFromGroups(['viewer', 'manager', 'boss'], new Map())).toBe('manager');
    expect(roleFromGroups(['boss'], new Map())).toBeNull();
  });
});

describe('safeNext', () => {
  it('keeps paths on this site, refuses anything a browser reads as another origin', () => {
    expect(safeNext('/delays?route=M15')).toBe('/delays?route=M15');
    for (const bad of ['//evil.example', '/\\evil.example', 'https://evil.example/', 'javascript:alert(1)', '', null, undefined, '/\nx', '/signin', '/api/live']) expect(safeNext(bad)).toBe('/');
  });
});
