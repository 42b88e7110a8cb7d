import { describe, expect, it } from 'vitest';
import { ciServiceProblems } from './ci-services';

describe('CI is loud about the services the store and cluster tests need', () => {
  it('asks nothing outside CI', async () => {
    expect(await ciServiceProblems({ CI: 'false' })).toEqual([]);
    expect(await ciServiceProblems({})).toEqual([]);
  });

  it('in CI, names an unset variable and a service that does not answer', async () => {
    const problems = await ciServiceProblems({ CI: 'true', TEST_REDIS_URL: 'redis://127.0.0.1:1' });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^TEST_DATABASE_URL is unset/);
    expect(problems[1]).toMatch(/^TEST_REDIS_URL \(127\.0\.0\.1:1\) does not answer: /);
  });

  it.runIf(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL)('in CI, finds nothing wrong with services that answer', async () => {
    expect(await ciServiceProblems({ CI: 'true', TEST_DATABASE_URL: process.env.TEST_DATABASE_URL, TEST_REDIS_URL: process.env.TEST_REDIS_URL })).toEqual([]);
  });
});
