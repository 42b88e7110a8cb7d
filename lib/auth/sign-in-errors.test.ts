import { describe, expect, it } from 'vitest';
import { signInErrorFromQuery, signInErrorPath } from './sign-in-errors';

describe('sign-in errors', () => {
  it('the page says a fixed sentence chosen by the code, never the text of the link', () => {
    expect(signInErrorFromQuery('credentials', null)).toBe('The name or the password is wrong.');
    expect(signInErrorFromQuery('throttled', '16')).toBe('Too many failed sign-ins: try again in 16 s.');
    expect(signInErrorFromQuery('credentials', '300')).toBe('The name or the password is wrong. Too many failed sign-ins: try again in 5 min.');
    const phishing = 'Your account is locked. Call +1 555 0100 to unlock it.';
    expect(signInErrorFromQuery(phishing, null)).toBe('The sign-in did not succeed; please try again.');
    expect(signInErrorFromQuery('credentials', '+1 555 0100')).toBe('The name or the password is wrong.');
    expect(signInErrorFromQuery('toString', null)).toBe('The sign-in did not succeed; please try again.');
    expect(signInErrorFromQuery(null, null)).toBeNull();
  });

  it('the address back to the form carries the code, the wait and a percent-encoded next', () => {
    expect(signInErrorPath('throttled', { waitS: 4, next: '/Ā?x=1' })).toBe('/signin?error=throttled&wait=4&next=%2F%C4%80%3Fx%3D1');
    expect(signInErrorPath('provider-failed')).toBe('/signin?error=provider-failed');
  });
});
