// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdminAuditEntry, AdminUser, AdminWallToken, AdminWebhookTarget } from '@/lib/model';
import { fakeFetch, renderWithClient } from '@/lib/testing/render';
import { AdminConsole } from './admin-console';

const token = (over: Partial<AdminWallToken>): AdminWallToken => ({
  id: 1,
  kind: 'wall',
  name: 'depot screen 1',
  routes: null,
  createdBy: 'ada',
  createdAt: '2026-03-01T10:00:00Z',
  lastUsedAt: null,
  revokedAt: null,
  revokedBy: null,
  ...over,
});
const user = (over: Partial<AdminUser>): AdminUser => ({ name: 'ada', role: 'admin', source: 'local', createdAt: '2026-03-01T10:00:00Z', updatedAt: '2026-03-01T10:00:00Z', sessions: 1, ...over });

/** The admin API as the console sees it, holding its state so a change shows on the next read. */
function adminApi() {
  const tokens: AdminWallToken[] = [token({ id: 1, name: 'depot screen 1', routes: ['M15'] }), token({ id: 2, name: 'old lobby', revokedAt: '2026-03-02T10:00:00Z', revokedBy: 'ada' })];
  const users: AdminUser[] = [user({ name: 'ada', sessions: 2 }), user({ name: 'bo', role: 'viewer', source: 'oidc', sessions: 0 })];
  const entries: AdminAuditEntry[] = [];
  const targets: AdminWebhookTarget[] = [];
  const api = fakeFetch({
    'GET /api/admin/webhooks': () => ({ body: { targets } }),
    'POST /api/admin/webhooks': (init) => {
      const b = JSON.parse(String(init?.body)) as { url: string; secret: string; rules: AdminWebhookTarget['rules']; minSeverity: AdminWebhookTarget['minSeverity'] };
      if (b.url.startsWith('http://ops')) return { status: 400, body: { error: { message: 'The webhook target http://ops.example.org/: the url must be https; plain http is allowed only on loopback.' } } };
      const t: AdminWebhookTarget = { id: 5, url: b.url, secretMasked: `••••${b.secret.slice(-4)}`, rules: b.rules, minSeverity: b.minSeverity, createdBy: 'ada', createdAt: 1_772_000_000_000, removedAt: null };
      targets.unshift(t);
      return { status: 201, body: { target: t } };
    },
    'POST /api/admin/webhooks/5/test': () => ({ body: { delivery: 'dl_test_1', status: 200, ok: true, body: 'thanks', error: null } }),
    'DELETE /api/admin/webhooks/5': () => {
      targets[0] = { ...targets[0]!, removedAt: 1_772_000_100_000 };
      return { body: { target: targets[0] } };
    },
    'GET /api/admin/tokens': () => ({ body: { tokens } }),
    'GET /api/admin/users': () => ({ body: { users } }),
    'GET /api/admin/audit': () => ({ body: { entries } }),
    'POST /api/admin/tokens': (init) => {
      const { name, routes } = JSON.parse(String(init?.body)) as { name: string; routes: string };
      if (name === 'taken') return { status: 409, body: { error: { message: 'A display by that name exists.' } } };
      const created = token({ id: 3, name, routes: routes ? routes.split(',') : null });
      tokens.push(created);
      return { status: 201, body: { token: created, wallPath: '/wall?token=secret-once' } };
    },
    'DELETE /api/admin/tokens/1': () => {
      tokens[0] = { ...tokens[0]!, revokedAt: '2026-03-04T10:00:00Z', revokedBy: 'ada' };
      return { body: { ok: true } };
    },
    'DELETE /api/admin/users/ada/sessions': () => {
      users[0] = { ...users[0]!, sessions: 0 };
      return { body: { ok: true } };
    },
  });
  return api;
}

let api: ReturnType<typeof adminApi>;
beforeEach(() => {
  api = adminApi();
  vi.stubGlobal('fetch', api.fetch);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const reads = (path: string) => api.calls.filter((c) => c.method === 'GET' && c.path === path).length;

describe('AdminConsole', () => {
  it('with sign-in off there is nothing to manage, and nothing is asked of the server', async () => {
    renderWithClient(<AdminConsole mode="none" />);
    expect(screen.getByText(/Sign-in is off/)).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Wall displays' })).toBeNull();
    await waitFor(() => expect(api.calls).toEqual([]));
  });

  it('lists wall tokens (routes, state, revoke only while active) and users (sign out only with sessions)', async () => {
    renderWithClient(<AdminConsole mode="local" />);
    const tokens = screen.getByRole('region', { name: 'Wall displays' });
    const active = (await within(tokens).findByText('depot screen 1')).closest('tr')!;
    expect(active.textContent).toContain('M15');
    expect(active.textContent).toContain('active');
    expect(within(active).getByRole('button', { name: 'Revoke depot screen 1' })).toBeTruthy();
    const revoked = within(tokens).getByText('old lobby').closest('tr')!;
    expect(revoked.textContent).toContain('all');
    expect(revoked.textContent).toMatch(/revoked/);
    expect(within(revoked).queryByRole('button')).toBeNull();
    const users = screen.getByRole('region', { name: 'Users' });
    expect(users.textContent).toContain('Local accounts are added and removed on the server');
    expect(await within(users).findByRole('button', { name: 'Sign out everywhere: ada' })).toHaveProperty('disabled', false);
    expect(within(users).getByRole('button', { name: 'Sign out everywhere: bo' })).toHaveProperty('disabled', true);
    expect(within(users).getByText('identity provider')).toBeTruthy();
  });

  it('creating a token sends what was typed, shows the wall address once, empties the form and reads the lists again', async () => {
    renderWithClient(<AdminConsole mode="local" />);
    await screen.findByText('depot screen 1');
    const before = reads('/api/admin/tokens');
    const name = screen.getByRole('textbox', { name: 'Display name' }) as HTMLInputElement;
    const routes = screen.getByRole('textbox', { name: 'Routes (optional)' }) as HTMLInputElement;
    fireEvent.change(name, { target: { value: 'depot screen 2' } });
    fireEvent.change(routes, { target: { value: 'M15,M101' } });
    const create = screen.getByRole('button', { name: 'Create wall token' });
    await waitFor(() => expect(create).toHaveProperty('disabled', false));
    fireEvent.click(create);
    const shown = await screen.findByRole('status');
    expect(api.calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'depot screen 2', routes: 'M15,M101', kind: 'wall' });
    expect((within(shown).getByRole('textbox', { name: 'Wall address' }) as HTMLInputElement).value).toBe(`${window.location.origin}/wall?token=secret-once`);
    expect(name.value).toBe('');
    expect(routes.value).toBe('');
    expect(await screen.findByRole('cell', { name: 'depot screen 2' })).toBeTruthy();
    expect(within(shown).getByText('depot screen 2').tagName).toBe('STRONG');
    expect(reads('/api/admin/tokens')).toBeGreaterThan(before);
    fireEvent.click(within(shown).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('a refused creation says why, and shows no address', async () => {
    renderWithClient(<AdminConsole mode="local" />);
    await screen.findByText('depot screen 1');
    fireEvent.change(screen.getByRole('textbox', { name: 'Display name' }), { target: { value: 'taken' } });
    const create = screen.getByRole('button', { name: 'Create wall token' });
    await waitFor(() => expect(create).toHaveProperty('disabled', false));
    fireEvent.click(create);
    expect((await screen.findByRole('alert')).textContent).toBe('A display by that name exists.');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('revoking a token and signing a user out go to the server and show the new state', async () => {
    renderWithClient(<AdminConsole mode="oidc" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke depot screen 1' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Revoke depot screen 1' })).toBeNull());
    expect(screen.getByText('depot screen 1').closest('tr')!.textContent).toMatch(/revoked/);
    expect(screen.getByText(/Users come from the identity provider/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Sign out everywhere: ada' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sign out everywhere: ada' })).toHaveProperty('disabled', true));
    expect(api.calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/api/admin/tokens/1', '/api/admin/users/ada/sessions']);
  });

  it('webhook targets: adds one with what was typed (secret shown masked), says why a refused one is refused, tests and removes', async () => {
    renderWithClient(<AdminConsole mode="local" />);
    const section = within(await screen.findByRole('region', { name: 'Webhook targets' }));
    await section.findByText('None added here.');
    const add = section.getByRole('button', { name: 'Add webhook target' });
    await waitFor(() => expect(add).toHaveProperty('disabled', false));
    fireEvent.change(section.getByLabelText('Target URL'), { target: { value: 'http://ops.example.org/' } });
    fireEvent.change(section.getByLabelText('Secret'), { target: { value: 'a-secret-of-24-characters' } });
    fireEvent.click(add);
    expect((await section.findByRole('alert')).textContent).toMatch(/plain http is allowed only on loopback/);

    fireEvent.change(section.getByLabelText('Target URL'), { target: { value: 'https://ops.example.org/hook' } });
    fireEvent.change(section.getByLabelText('Secret'), { target: { value: 'a-secret-of-24-characters' } });
    fireEvent.change(section.getByLabelText('Least severity'), { target: { value: 'critical' } });
    fireEvent.click(section.getByRole('checkbox', { name: 'ghost' }));
    fireEvent.click(add);
    const row = (await section.findByText('https://ops.example.org/hook')).closest('tr')!;
    expect(row.textContent).toMatch(/••••ters.*ghost.*critical/);
    expect(api.calls.filter((c) => c.method === 'POST' && c.path === '/api/admin/webhooks').map((c) => c.body)).toEqual([
      { url: 'http://ops.example.org/', secret: 'a-secret-of-24-characters', rules: null, minSeverity: null },
      { url: 'https://ops.example.org/hook', secret: 'a-secret-of-24-characters', rules: ['ghost'], minSeverity: 'critical' },
    ]);

    fireEvent.click(section.getByRole('button', { name: 'Send test to https://ops.example.org/hook' }));
    expect((await section.findByRole('status', { name: 'Test delivery' })).textContent).toMatch(/HTTP 200.*thanks/);
    fireEvent.click(section.getByRole('button', { name: 'Remove https://ops.example.org/hook' }));
    await section.findByText('None added here.');
    expect(api.calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/api/admin/webhooks/5']);
  });
});
