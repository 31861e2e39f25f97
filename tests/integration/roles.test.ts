import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '../../src/server/db/client.ts';
import { users } from '../../src/server/db/schema/index.ts';
import { AppError } from '../../src/server/http/errors.ts';
import { requireRole, findSession, createSession, registerAccount } from '../../src/server/services/accounts/index.ts';
import { useTestDatabase } from '../helpers/db.ts';

useTestDatabase();

const run = promisify(execFile);
/** `npm run ops -- …` against this file's database, as an operator types it. */
const ops = (...args: string[]) =>
  run(process.execPath, ['scripts/ops.ts', ...args], { env: { ...process.env } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );

const roleOf = async (userId: number) => (await getDb().select({ role: users.role }).from(users).where(eq(users.id, userId)))[0]!.role;

describe('roles', () => {
  it('the first admin is made by the operator command, and the session says so on the next request', async () => {
    const account = await registerAccount({ email: 'Founder@Example.com', password: 'solder-bridge-42', nickname: 'Founder' });
    const { token } = await createSession(account.userId, 'vitest');
    expect((await findSession(token))!.user.role).toBe('member');

    const dry = await ops('user:role', 'founder@example.com', 'admin', '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('would go from member to admin');
    expect(await roleOf(account.userId)).toBe('member');

    const made = await ops('user:role', 'founder@example.com', 'admin');
    expect(made.code).toBe(0);
    expect(made.stdout).toContain('went from member to admin');
    expect((await findSession(token))!.user.role).toBe('admin');

    const again = await ops('user:role', 'FOUNDER@example.com', 'admin');
    expect(again.stdout).toContain('is already admin');
  });

  it('refuses what an operator could mistype, and changes nothing', async () => {
    const account = await registerAccount({ email: 'typo@example.com', password: 'solder-bridge-42', nickname: 'Typo' });
    const badRole = await ops('user:role', 'typo@example.com', 'owner');
    expect(badRole.code).toBe(2);
    expect(badRole.stderr).toContain('"owner" is not a role');
    const missing = await ops('user:role', 'nobody@example.com', 'admin');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no member has the email nobody@example.com');
    const short = await ops('user:role', 'typo@example.com');
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('takes <email> <role>');
    expect(await roleOf(account.userId)).toBe('member');
  });

  it('staff checks: a member is forbidden, a moderator may moderate, only an admin may administer', () => {
    const member = { id: 1, url: 'm', nickname: 'M', avatar: null, role: 'member' as const };
    const moderator = { ...member, role: 'moderator' as const };
    const admin = { ...member, role: 'admin' as const };
    const key = (fn: () => unknown) => {
      try {
        fn();
        return null;
      } catch (error) {
        return error instanceof AppError ? error.errorKey : String(error);
      }
    };
    expect(key(() => requireRole(null, 'moderator'))).toBe('unauthorized');
    expect(key(() => requireRole(member, 'moderator'))).toBe('forbidden');
    expect(key(() => requireRole(moderator, 'moderator'))).toBeNull();
    expect(key(() => requireRole(moderator, 'admin'))).toBe('forbidden');
    expect(key(() => requireRole(admin, 'moderator'))).toBeNull();
  });
});
