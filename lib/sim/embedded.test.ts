import { describe, expect, it } from 'vitest';
import { startEmbeddedSimulator } from './embedded';

describe('startEmbeddedSimulator', () => {
  // One per process: the application context holds it, and a process starts once (lib/server/start.integration.test.ts).
  it('starts a simulator on a loopback port with a business key', async () => {
    const first = await startEmbeddedSimulator({ SIM_BUSES: '40' });
    try {
      expect(first.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/partner$/);
      expect(first.apiKey).toBe('demo-business-key');
      const res = await fetch(`${first.baseUrl}/status`, { headers: { Authorization: `Bearer ${first.apiKey}` } });
      expect(((await res.json()) as { data: { level: string } }).data.level).toBe('business');
    } finally {
      await first.close();
    }
    const again = await startEmbeddedSimulator({ SIM_KEYS: '[{"key":"std-only-key","plan":"standard","scopes":["routes:read"]},{"key":"biz-key-123","plan":"business","scopes":["gps:read"]}]' });
    try {
      expect(again.apiKey).toBe('biz-key-123');
    } finally {
      await again.close();
    }
  });

  it('rejects a bad configuration and lets a later call start cleanly', async () => {
    await expect(startEmbeddedSimulator({ SIM_SPEED: 'warp' })).rejects.toThrow(/SIM_SPEED/);
    const ok = await startEmbeddedSimulator({ SIM_BUSES: '20' });
    await ok.close();
  });
});
