import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { useTestDatabase } from '../helpers/db.ts';
import { getDb } from '../../src/server/db/client.ts';
import { rateLimits } from '../../src/server/db/schema/index.ts';
import { assertUnderRateLimitRule, deleteExpiredRateLimits, hitRateLimitRule } from '../../src/server/services/rate-limit.ts';

useTestDatabase();

const minute = 60_000;
const at = (time: string) => new Date(`2026-03-01T${time}Z`);

describe('hitRateLimitRule', () => {
  it('allows `limit` hits and refuses the next with 429 rate_limited, for the rest of the window', async () => {
    for (let i = 1; i <= 3; i += 1) expect((await hitRateLimitRule('test:a', { limit: 3, windowMs: minute }, at('10:00:30'))).count).toBe(i);
    await expect(hitRateLimitRule('test:a', { limit: 3, windowMs: minute }, at('10:00:30'))).rejects.toMatchObject({ status: 429, errorKey: 'rate_limited' });
    await expect(hitRateLimitRule('test:a', { limit: 3, windowMs: minute }, at('10:00:59'))).rejects.toMatchObject({ status: 429 });
    // other keys are counted apart
    expect((await hitRateLimitRule('test:b', { limit: 3, windowMs: minute }, at('10:00:30'))).count).toBe(1);
  });

  it('still counts a burst from the end of one window just after the boundary', async () => {
    for (let i = 0; i < 3; i += 1) await hitRateLimitRule('test:edge', { limit: 3, windowMs: minute }, at('10:00:58'));
    await expect(hitRateLimitRule('test:edge', { limit: 3, windowMs: minute }, at('10:01:01'))).rejects.toMatchObject({ status: 429 });
  });

  it('lets hits through again once a quiet window has passed', async () => {
    for (let i = 0; i < 3; i += 1) await hitRateLimitRule('test:quiet', { limit: 3, windowMs: minute }, at('10:00:10'));
    await expect(hitRateLimitRule('test:quiet', { limit: 3, windowMs: minute }, at('10:00:20'))).rejects.toMatchObject({ status: 429 });
    expect((await hitRateLimitRule('test:quiet', { limit: 3, windowMs: minute }, at('10:02:05'))).count).toBe(1);
  });

  it('counts concurrent hits exactly once each', async () => {
    const results = await Promise.allSettled(Array.from({ length: 12 }, () => hitRateLimitRule('test:burst', { limit: 10, windowMs: minute }, at('10:00:30'))));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(10);
    expect(results.filter((result) => result.status === 'rejected')).toHaveLength(2);
  });

  it('can check a limit without counting (for limits on failures only)', async () => {
    const now = at('10:00:30');
    await assertUnderRateLimitRule('test:failures', { limit: 2, windowMs: minute }, now);
    await assertUnderRateLimitRule('test:failures', { limit: 2, windowMs: minute }, now);
    await hitRateLimitRule('test:failures', { limit: 2, windowMs: minute }, now);
    await assertUnderRateLimitRule('test:failures', { limit: 2, windowMs: minute }, now);
    await hitRateLimitRule('test:failures', { limit: 2, windowMs: minute }, now);
    await expect(assertUnderRateLimitRule('test:failures', { limit: 2, windowMs: minute }, now)).rejects.toMatchObject({ status: 429, errorKey: 'rate_limited' });
    await expect(assertUnderRateLimitRule('test:failures', { limit: 2, windowMs: minute }, at('10:01:00'))).rejects.toMatchObject({ status: 429 });
  });

  it('forgets windows older than a day', async () => {
    await hitRateLimitRule('test:old', { limit: 5, windowMs: minute }, new Date('2026-02-20T10:00:00Z'));
    await deleteExpiredRateLimits(at('10:00:30'));
    expect(await getDb().select().from(rateLimits).where(eq(rateLimits.key, 'test:old'))).toHaveLength(0);
    expect(await getDb().select().from(rateLimits).where(eq(rateLimits.key, 'test:a'))).not.toHaveLength(0);
  });
});
