import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../helpers/db.ts';
import { createProject, createUser } from '../helpers/factories.ts';
import { getDb } from '../../src/server/db/client.ts';
import { comments } from '../../src/server/db/schema/index.ts';
import { replyToComment, submitComment } from '../../src/server/services/community/index.ts';
import { hitMemberRateLimit, NEW_ACCOUNT_MS, RATE_LIMITS } from '../../src/server/services/core/index.ts';

useTestDatabase();

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** A member who signed up `ageMs` ago. */
const memberAged = (ageMs: number, nickname?: string) => createUser({ createdAt: new Date(Date.now() - ageMs), ...(nickname ? { nickname } : {}) });

async function storedBodies(authorId: number): Promise<string[]> {
  const rows = await getDb().select({ body: comments.body }).from(comments).where(eq(comments.authorId, authorId));
  return rows.map((row) => row.body);
}

describe('links in comments', () => {
  it('are refused from an account in its first day, saying when it may post them, and nothing is stored', async () => {
    const { user: owner } = await memberAged(30 * DAY);
    const project = await createProject(owner.id);
    const { user: newcomer } = await memberAged(2 * HOUR);
    for (const text of ['Buy now at https://spam.example/deal', 'see spam.com/deal', 'mail me: me@spam.com']) {
      const refusal = await submitComment(newcomer.id, project.publicId, text).catch((error: unknown) => error);
      expect(refusal).toMatchObject({ status: 403, errorKey: 'links_not_allowed_yet' });
      // 22 hours left of the first day, give or take the test's own seconds
      expect((refusal as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(22 * 3600 - 60);
      expect((refusal as { retryAfterSeconds: number }).retryAfterSeconds).toBeLessThanOrEqual(22 * 3600);
    }
    // the same newcomer may still comment without a link, and replies follow the same rule
    const plain = await submitComment(newcomer.id, project.publicId, 'Nice board, which regulator is it?');
    await expect(replyToComment(newcomer.id, plain.id, 'Datasheet: https://spam.example/ds.pdf')).rejects.toMatchObject({ errorKey: 'links_not_allowed_yet' });
    expect(await storedBodies(newcomer.id)).toEqual(['Nice board, which regulator is it?']);
  });

  it('are accepted from an account older than a day, in comments and replies', async () => {
    const { user: owner } = await memberAged(30 * DAY);
    const project = await createProject(owner.id);
    const { user: regular } = await memberAged(NEW_ACCOUNT_MS + 60_000);
    const comment = await submitComment(regular.id, project.publicId, 'Datasheet: https://example.com/ds.pdf');
    expect(comment.links).toEqual([{ start: 11, end: 37, href: 'https://example.com/ds.pdf' }]);
    const reply = await replyToComment(regular.id, comment.id, 'Also example.com/app-note');
    expect(reply.links).toHaveLength(1);
  });
});

describe('identical comments', () => {
  it('are refused when the same member posts the same text again within the hour, on any project or as a reply', async () => {
    const { user: owner } = await memberAged(30 * DAY);
    const first = await createProject(owner.id);
    const second = await createProject(owner.id);
    const { user: poster } = await memberAged(30 * DAY);
    const comment = await submitComment(poster.id, first.publicId, 'Great work!');
    await expect(submitComment(poster.id, first.publicId, 'Great work!')).rejects.toMatchObject({ status: 409, errorKey: 'duplicate_comment' });
    // the text is compared as stored: surrounding blank space does not make it new
    await expect(submitComment(poster.id, second.publicId, '  Great work!\n')).rejects.toMatchObject({ errorKey: 'duplicate_comment' });
    await expect(replyToComment(poster.id, comment.id, 'Great work!')).rejects.toMatchObject({ errorKey: 'duplicate_comment' });
    expect(await storedBodies(poster.id)).toEqual(['Great work!']);

    // someone else may say the same; and once the first is over an hour old, so may the poster
    const { user: other } = await memberAged(30 * DAY);
    await submitComment(other.id, first.publicId, 'Great work!');
    await getDb().update(comments).set({ createdAt: new Date(Date.now() - HOUR - 60_000) }).where(eq(comments.id, comment.id));
    await submitComment(poster.id, second.publicId, 'Great work!');
    expect(await storedBodies(poster.id)).toEqual(['Great work!', 'Great work!']);
  });
});

describe('rate limits for new accounts', () => {
  it('are stricter during the first day: a newcomer is refused where an older member is not', async () => {
    const { user: owner } = await memberAged(30 * DAY);
    const project = await createProject(owner.id);
    const { user: newcomer } = await memberAged(HOUR);
    const { user: regular } = await memberAged(2 * DAY);
    const [newcomerPerMinute] = RATE_LIMITS.comment.newAccount;
    expect(newcomerPerMinute.limit).toBeLessThan(RATE_LIMITS.comment.member.limit);
    for (let i = 1; i <= newcomerPerMinute.limit; i += 1) {
      await submitComment(newcomer.id, project.publicId, `Question ${i}`);
      await submitComment(regular.id, project.publicId, `Question ${i}`);
    }
    await expect(submitComment(newcomer.id, project.publicId, 'One more')).rejects.toMatchObject({ status: 429, errorKey: 'rate_limited' });
    await submitComment(regular.id, project.publicId, 'One more');
    expect(await storedBodies(newcomer.id)).toHaveLength(newcomerPerMinute.limit);
    expect(await storedBodies(regular.id)).toHaveLength(newcomerPerMinute.limit + 1);
  });

  it('count a newcomer\'s hour too: thirty comments an hour, however slowly they come', async () => {
    const hourly = RATE_LIMITS.comment.newAccount[1];
    const signedUp = new Date('2026-03-01T10:00:00Z');
    // one comment every three minutes: never past the per-minute step, still past the hourly one
    for (let i = 0; i < hourly.limit; i += 1) await hitMemberRateLimit('comment', 990_001, signedUp, new Date(signedUp.getTime() + (i + 1) * 100_000));
    await expect(hitMemberRateLimit('comment', 990_001, signedUp, new Date(signedUp.getTime() + (hourly.limit + 1) * 100_000))).rejects.toMatchObject({ errorKey: 'rate_limited' });
    // a member past their first day has the ordinary allowance for the same pace
    const longAgo = new Date('2026-01-01T00:00:00Z');
    for (let i = 0; i <= hourly.limit; i += 1) await hitMemberRateLimit('comment', 990_002, longAgo, new Date(signedUp.getTime() + (i + 1) * 100_000));
  });
});
