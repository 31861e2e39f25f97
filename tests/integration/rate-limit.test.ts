import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { useTestDatabase } from '../helpers/db.ts';
import { getDb } from '../../src/server/db/client.ts';
import { rateLimits } from '../../src/server/db/schema/index.ts';
import { assertUnderRateLimit, assertUnderRateLimitRule, deleteExpiredRateLimits, hitRateLimit, hitRateLimitRule, RATE_LIMITS } from '../../src/server/services/core/index.ts';

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

  it('tells a refused client how long to wait until one more hit fits', async () => {
    const rule = { limit: 3, windowMs: minute };
    for (let i = 0; i < 3; i += 1) await hitRateLimitRule('test:wait', rule, at('10:00:30'));
    // Full on its own: the window ends at 10:01:00, then its weight fades to two hits by 10:01:20.
    await expect(assertUnderRateLimitRule('test:wait', rule, at('10:00:30'))).rejects.toMatchObject({ retryAfterSeconds: 50 });
    await expect(assertUnderRateLimitRule('test:wait', rule, at('10:01:10'))).rejects.toMatchObject({ retryAfterSeconds: 10 });
    await assertUnderRateLimitRule('test:wait', rule, at('10:01:21'));
  });

  it('forgets windows older than a day', async () => {
    await hitRateLimitRule('test:old', { limit: 5, windowMs: minute }, new Date('2026-02-20T10:00:00Z'));
    await deleteExpiredRateLimits(at('10:00:30'));
    expect(await getDb().select().from(rateLimits).where(eq(rateLimits.key, 'test:old'))).toHaveLength(0);
    expect(await getDb().select().from(rateLimits).where(eq(rateLimits.key, 'test:a'))).not.toHaveLength(0);
  });
});

describe('stepped limits', () => {
  const pair = '192.0.2.1 owner@example.com';

  it('let the first step through, then make each further failure wait longer', async () => {
    const [quick, quarter] = RATE_LIMITS['sso:login:pair'];
    for (let i = 0; i < quick.limit; i += 1) await hitRateLimit('sso:login:pair', pair, at('10:00:10'));
    const first = await assertUnderRateLimit('sso:login:pair', pair, at('10:00:10')).catch((error: unknown) => error);
    expect(first).toMatchObject({ status: 429, errorKey: 'rate_limited' });
    const firstWait = (first as { retryAfterSeconds: number }).retryAfterSeconds;
    expect(firstWait).toBeLessThanOrEqual(2 * 60); // the minute ends, then its weight fades

    // Once the minute has passed, another round of quick failures fills the quarter-hour step.
    for (let i = quick.limit; i < quarter.limit; i += 1) await hitRateLimit('sso:login:pair', pair, at('10:02:10'));
    const second = await assertUnderRateLimit('sso:login:pair', pair, at('10:02:10')).catch((error: unknown) => error);
    expect(second).toMatchObject({ status: 429 });
    const secondWait = (second as { retryAfterSeconds: number }).retryAfterSeconds;
    expect(secondWait).toBeGreaterThan(firstWait);
    expect(secondWait).toBeGreaterThan(5 * 60);
    await expect(assertUnderRateLimit('sso:login:pair', pair, at('10:05:00'))).rejects.toMatchObject({ status: 429 });
    await assertUnderRateLimit('sso:login:pair', pair, new Date(at('10:02:10').getTime() + secondWait * 1000));
  });

  it('count each subject apart', async () => {
    await assertUnderRateLimit('sso:login:pair', '192.0.2.2 owner@example.com', at('10:00:10'));
  });
});
