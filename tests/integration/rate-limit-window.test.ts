import { afterEach, describe, expect, it, vi } from 'vitest';
import { useTestDatabase } from '../helpers/db.ts';
import { hitRateLimit } from '../../src/server/services/rate-limit.ts';

useTestDatabase();

describe('hitRateLimit', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('allows `limit` hits per fixed window and answers 429 rate_limited after that', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-01T00:00:05Z'));
    for (let i = 0; i < 3; i += 1) await hitRateLimit('test:a', 3, 60_000);
    await expect(hitRateLimit('test:a', 3, 60_000)).rejects.toMatchObject({ status: 429, errorKey: 'rate_limited' });
    // other keys are counted apart
    await hitRateLimit('test:b', 3, 60_000);
    // a new window starts over
    vi.setSystemTime(new Date('2030-01-01T00:01:00Z'));
    await hitRateLimit('test:a', 3, 60_000);
  });

  it('counts concurrent hits exactly', async () => {
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => hitRateLimit('test:burst', 5, 3_600_000)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
  });
});
