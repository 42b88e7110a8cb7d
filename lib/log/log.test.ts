import { AsyncLocalStorage } from 'node:async_hooks';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { processSlot } from '@/lib/process-slot.mjs';
import { createLogger, logLevelOf } from './create-logger.mjs';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, stream };
}

afterEach(() => {
  delete processSlot().requestContext;
});

describe('the logger', () => {
  it('writes one JSON line per event with its level by name, at LOG_LEVEL and above', () => {
    const { lines, stream } = capture();
    const log = createLogger({ LOG_LEVEL: 'warn' }, stream);
    log.info('not shown');
    log.warn({ operation: 'busLocation' }, 'upstream error');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'warn', msg: 'upstream error', operation: 'busLocation' });
    expect(typeof lines[0]!.time).toBe('string');
    expect(logLevelOf({ LOG_LEVEL: ' DEBUG ' })).toBe('debug');
    expect(logLevelOf({ LOG_LEVEL: 'verbose' })).toBe('info');
    expect(logLevelOf({})).toBe('info');
  });

  it('names the request being served on every line logged while serving it', async () => {
    const { lines, stream } = capture();
    const log = createLogger({}, stream);
    const context = (processSlot().requestContext = new AsyncLocalStorage());
    await context.run({ requestId: 'req-1' }, async () => {
      await new Promise((r) => setTimeout(r, 1));
      log.info('inside');
    });
    log.info('outside');
    expect(lines.map((l) => [l.msg, l.requestId])).toEqual([
      ['inside', 'req-1'],
      ['outside', undefined],
    ]);
  });

  it('never writes a secret: secret keys are censored, and the secret variables are cut out of any line', () => {
    const { lines, stream } = capture();
    const env = { PARTNER_API_KEY: 'canary-0123456789abcdef', METRICS_TOKEN: 'metrics-token-0123456789' };
    const log = createLogger(env, stream);
    log.warn({ password: 'hunter2-password', nested: { token: 'wall-token-123' }, authorization: 'Bearer x' }, 'sign-in failed');
    log.error({ error: `upstream said: bad key canary-0123456789abcdef` }, 'upstream error');
    log.info(`scrape with metrics-token-0123456789`);
    const text = JSON.stringify(lines);
    for (const secret of ['hunter2-password', 'wall-token-123', 'Bearer x', env.PARTNER_API_KEY, env.METRICS_TOKEN]) expect(text).not.toContain(secret);
    expect(lines[0]).toMatchObject({ password: '[redacted]', nested: { token: '[redacted]' } });
    expect(lines[1]!.error).toBe('upstream said: bad key [redacted]');
  });
});
