import { describe, expect, it } from 'vitest';
import { feedTrouble } from './feed-trouble';

describe('feedTrouble', () => {
  it('is silent when the feed is fine', () => {
    expect(feedTrouble({ state: 'ok', message: null }, false, 3)).toBeNull();
  });
  it('names upstream trouble with the age of the data kept on screen', () => {
    expect(feedTrouble({ state: 'unauthorized', message: null }, false, 65)).toEqual({
      tone: 'warning',
      text: 'The transport data service rejected our key. Showing the last data, from 1 min ago.',
    });
    expect(feedTrouble({ state: 'degraded', message: 'Upstream answers 503.' }, false, 2)?.text).toBe(
      'Upstream answers 503. Showing the last data, from 2 s ago.',
    );
  });
  it('tells our own server being unreachable apart from the upstream', () => {
    expect(feedTrouble({ state: 'ok', message: null }, true, 30)?.text).toMatch(/^Cannot reach the Fleetmap server.*30 s ago/);
    expect(feedTrouble(null, true, null)).toEqual({ tone: 'warning', text: 'Waiting for the Fleetmap server; retrying.' });
    expect(feedTrouble(null, false, null)?.tone).toBe('info');
  });
});
