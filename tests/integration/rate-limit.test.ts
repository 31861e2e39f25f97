import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { useTestDatabase } from '../helpers/db.ts';
import { getDb } from '../../src/server/db/client.ts';
import { rateLimits } from '../../src/server/db/schema/index.ts';
import { assertUnderRateLimit, deleteExpiredRateLimits, hitRateLimit } from '../../src/server/services/rate-limit.ts';

useTestDatabase();

describe('hitRateLimit', () => {
  const minute = 60_000;
  const now = new Date('2026-03-01T10:00:30Z');

  it('counts hits in a fixed window and refuses the one past the limit with 429 rate_limited', async () => {
    for (let i = 1; i <= 3; i += 1) expect((await hitRateLimit('test:a', 3, minute, now)).count).toBe(i);
    await expect(hitRateLimit('test:a', 3, minute, now)).rejects.toMatchObject({ status: 429, errorKey: 'rate_limited' });
    // still refused later in the same window
    await expect(hitRateLimit('test:a', 3, minute, new Date('2026-03-01T10:00:59Z'))).rejects.toMatchObject({ status: 429 });
  });

  it('starts afresh in the next window and keeps keys apart', async () => {
    const next = await hitRateLimit('test:a', 3, minute, new Date('2026-03-01T10:01:00Z'));
    expect(next).toEqual({ count: 1, resetAt: new Date('2026-03-01T10:02:00Z') });
    expect((await hitRateLimit('test:b', 3, minute, now)).count).toBe(1);
  });

  it('counts concurrent hits exactly once each', async () => {
    const results = await Promise.allSettled(Array.from({ length: 12 }, () => hitRateLimit('test:burst', 10, minute, now)));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(10);
    expect(results.filter((result) => result.status === 'rejected')).toHaveLength(2);
  });

  it('can check a limit without counting (for limits on failures only)', async () => {
    await assertUnderRateLimit('test:failures', 2, minute, now);
    await assertUnderRateLimit('test:failures', 2, minute, now);
    await hitRateLimit('test:failures', 2, minute, now);
    await assertUnderRateLimit('test:failures', 2, minute, now);
    await hitRateLimit('test:failures', 2, minute, now);
    await expect(assertUnderRateLimit('test:failures', 2, minute, now)).rejects.toMatchObject({ status: 429, errorKey: 'rate_limited' });
  });

  it('forgets windows older than a day', async () => {
    await hitRateLimit('test:old', 5, minute, new Date('2026-02-20T10:00:00Z'));
    await deleteExpiredRateLimits(now);
    expect(await getDb().select().from(rateLimits).where(eq(rateLimits.key, 'test:old'))).toHaveLength(0);
    expect(await getDb().select().from(rateLimits).where(eq(rateLimits.key, 'test:a'))).not.toHaveLength(0);
  });
});
