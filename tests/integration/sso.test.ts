import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { useTestDatabase } from '../helpers/db.ts';
import { getDb } from '../../src/server/db/client.ts';
import { credentials, sessions, ssoCodes, users } from '../../src/server/db/schema/index.ts';
import { parseInput } from '../../src/server/http/validation.ts';
import { createSession, findSession, authenticate, loginSchema, registerAccount, registerSchema, signIn, signUp, consumeSsoCode, exchangeSsoCode, exchangeSsoCodeInBrowser, issueSsoCode, SSO_CODE_TTL_MS, type RequestMeta } from '../../src/server/services/accounts/index.ts';
import { hitRateLimit, RATE_LIMITS } from '../../src/server/services/core/index.ts';
import { hashToken } from '../../src/server/lib/tokens.ts';

// The site answers as copperhub.test here (read once by getConfig, before the first test).
process.env.ALLOWED_HOSTS = 'copperhub.test';
useTestDatabase();

const site = new URL('http://copperhub.test/sso/login');
let ipCounter = 0;
const meta = (ip = `198.51.100.${(ipCounter += 1)}`): RequestMeta => ({ ip, userAgent: 'vitest', requestUrl: site });
const codeOf = (location: string) => new URL(location).searchParams.get('code')!;

describe('sign-up', () => {
  it('creates the member with a hashed password and a custom URL from the nickname', async () => {
    const { userId, url } = await registerAccount({ email: 'Ada@Example.COM ', password: 'analytical-engine', nickname: 'Ada Lovelace' });
    expect(url).toBe('ada-lovelace');
    const [credential] = await getDb().select().from(credentials).where(eq(credentials.userId, userId));
    expect(credential!.email).toBe('ada@example.com');
    expect(credential!.passwordHash).toMatch(/^scrypt\$N=16384,r=8,p=1\$/);
    expect(credential!.passwordHash).not.toContain('analytical-engine');
  });

  it('gives a taken or reserved slug a random suffix, and Chinese nicknames maker-xxxx', async () => {
    const second = await registerAccount({ email: 'ada2@example.com', password: 'analytical-engine', nickname: 'Ada Lovelace' });
    expect(second.url).toMatch(/^ada-lovelace-[a-z0-9]{4}$/);
    const chinese = await registerAccount({ email: 'wang@example.com', password: 'password-123', nickname: '开源硬件爱好者' });
    expect(chinese.url).toMatch(/^maker-[a-z0-9]{4}$/);
    const reserved = await registerAccount({ email: 'admin@example.com', password: 'password-123', nickname: 'Admin' });
    expect(reserved.url).toMatch(/^maker-[a-z0-9]{4}$/);
    const [row] = await getDb().select().from(users).where(eq(users.id, chinese.userId));
    expect(row!.nickname).toBe('开源硬件爱好者');
  });

  it('refuses an email that already has an account with 409 email_taken', async () => {
    await expect(registerAccount({ email: 'ADA@example.com', password: 'whatever-1', nickname: 'Other' })).rejects.toMatchObject({
      status: 409,
      errorKey: 'email_taken',
      fields: { email: 'email_taken' },
    });
  });

  it('validates the form: email format, password length, visible nickname', () => {
    const error = (() => {
      try {
        parseInput(registerSchema, { email: 'not-an-email', password: 'short', nickname: '   ' });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toMatchObject({ status: 400, errorKey: 'validation', fields: { email: 'email', password: 'password_too_short', nickname: 'required' } });
    expect(() => parseInput(registerSchema, {})).toThrow();
    const ok = parseInput(registerSchema, { email: ' Bob@Example.com ', password: '12345678', nickname: ' Bob ', extra: 'ignored' });
    expect(ok).toEqual({ email: 'bob@example.com', password: '12345678', nickname: 'Bob' });
  });

  it('signs the new member in: the answer is the return address with a one-time code', async () => {
    const input = parseInput(registerSchema, { email: 'grace@example.com', password: 'cobol-1959', nickname: 'Grace', redirect: '/d-abc?tab=files' });
    const { location } = await signUp(input, meta());
    const url = new URL(location);
    expect(url.origin + url.pathname + `?tab=${url.searchParams.get('tab')}`).toBe('http://copperhub.test/d-abc?tab=files');
    const userId = await consumeSsoCode(url.searchParams.get('code'));
    const [row] = await getDb().select().from(users).where(eq(users.customUrl, 'grace'));
    expect(userId).toBe(row!.id);
  });
});

describe('sign-in', () => {
  it('answers the same error for an unknown email and a wrong password', async () => {
    const unknown = await authenticate('nobody@example.com', 'analytical-engine').catch((e: unknown) => e);
    const wrong = await authenticate('ada@example.com', 'wrong-password').catch((e: unknown) => e);
    expect(unknown).toMatchObject({ status: 401, errorKey: 'invalid_credentials' });
    expect(wrong).toMatchObject({ status: 401, errorKey: 'invalid_credentials' });
    expect(await authenticate(' ADA@example.com', 'analytical-engine')).toBeGreaterThan(0);
  });

  it('returns to an allowed address with a code, and to the home page for any other origin', async () => {
    const input = (redirect: string) => parseInput(loginSchema, { email: 'ada@example.com', password: 'analytical-engine', redirect, siteId: 'copperhub', platform: 6 });
    const ok = new URL((await signIn(input('http://copperhub.test/user/ada-lovelace'), meta())).location);
    expect(ok.origin + ok.pathname).toBe('http://copperhub.test/user/ada-lovelace');
    expect(ok.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    for (const evil of ['https://evil.example/steal', '//evil.example/x', 'javascript:alert(1)']) {
      const fallback = new URL((await signIn(input(evil), meta())).location);
      expect(fallback.origin + fallback.pathname).toBe('http://copperhub.test/');
    }
  });

  it('refuses a sign-in link meant for another site', async () => {
    const input = parseInput(loginSchema, { email: 'ada@example.com', password: 'analytical-engine', siteId: 'someone-else' });
    await expect(signIn(input, meta())).rejects.toMatchObject({ status: 400, errorKey: 'sso_unknown_site' });
  });

  it('does not count successful sign-ins against the limits', async () => {
    const input = parseInput(loginSchema, { email: 'ada@example.com', password: 'analytical-engine' });
    for (let i = 0; i < RATE_LIMITS['sso:login:pair'][0].limit + 2; i += 1) await expect(signIn(input, meta('203.0.113.5'))).resolves.toHaveProperty('location');
  });

  it('slows a guesser at one address down, with the wait to announce, and only them', async () => {
    await registerAccount({ email: 'slowed@example.com', password: 'the-real-one', nickname: 'Slowed' });
    const guess = parseInput(loginSchema, { email: 'slowed@example.com', password: 'guess' });
    const right = parseInput(loginSchema, { email: 'slowed@example.com', password: 'the-real-one' });
    const attacker = '203.0.113.20';
    for (let i = 0; i < RATE_LIMITS['sso:login:pair'][0].limit; i += 1) {
      await expect(signIn(guess, meta(attacker))).rejects.toMatchObject({ errorKey: 'invalid_credentials' });
    }
    const refused = await signIn(guess, meta(attacker)).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 429, errorKey: 'rate_limited' });
    // Five failures in a minute: a wait of at most a minute, announced in whole seconds.
    expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(0);
    expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBeLessThanOrEqual(120);
    // Even the right password waits at that address (it could be the guesser's lucky try)…
    await expect(signIn(right, meta(attacker))).rejects.toMatchObject({ status: 429 });
    // …but the owner at their own address gets in, and another account at the same address is not slowed.
    await expect(signIn(right, meta('203.0.113.21'))).resolves.toHaveProperty('location');
    await expect(signIn(parseInput(loginSchema, { email: 'ada@example.com', password: 'analytical-engine' }), meta(attacker))).resolves.toHaveProperty('location');
  });

  it('lets the owner in with the right password after many failures from other addresses', async () => {
    await registerAccount({ email: 'target@example.com', password: 'the-real-one', nickname: 'Target' });
    const guess = parseInput(loginSchema, { email: 'target@example.com', password: 'guess' });
    for (let i = 0; i < 30; i += 1) {
      await expect(signIn(guess, meta(`192.0.2.${1 + (i % 6)}`))).rejects.toMatchObject({ errorKey: 'invalid_credentials' });
    }
    const right = parseInput(loginSchema, { email: 'target@example.com', password: 'the-real-one' });
    await expect(signIn(right, meta('198.18.0.1'))).resolves.toHaveProperty('location');
  });

  it('keeps a ceiling per account over all addresses, far above the owner\'s own mistakes', async () => {
    const ceiling = RATE_LIMITS['sso:login:email'].limit;
    expect(ceiling).toBeGreaterThanOrEqual(10 * RATE_LIMITS['sso:login:pair'][0].limit);
    await registerAccount({ email: 'besieged@example.com', password: 'the-real-one', nickname: 'Besieged' });
    // All but the last failure counted directly (each signIn costs a password hash); the last one
    // goes through signIn and is what reaches the ceiling.
    for (let i = 1; i < ceiling; i += 1) await hitRateLimit('sso:login:email', 'besieged@example.com');
    const guess = parseInput(loginSchema, { email: 'besieged@example.com', password: 'guess' });
    await expect(signIn(guess, meta('192.0.2.100'))).rejects.toMatchObject({ errorKey: 'invalid_credentials' });
    const right = parseInput(loginSchema, { email: 'besieged@example.com', password: 'the-real-one' });
    await expect(signIn(right, meta('198.18.0.2'))).rejects.toMatchObject({ status: 429, errorKey: 'rate_limited' });
  });

  it('limits failed attempts per IP over many accounts (credential stuffing)', async () => {
    const ip = '203.0.113.77';
    for (let i = 1; i < RATE_LIMITS['sso:login:ip'].limit; i += 1) await hitRateLimit('sso:login:ip', ip);
    await expect(signIn(parseInput(loginSchema, { email: 'guess@example.com', password: 'x' }), meta(ip))).rejects.toMatchObject({ errorKey: 'invalid_credentials' });
    await expect(signIn(parseInput(loginSchema, { email: 'ada@example.com', password: 'analytical-engine' }), meta(ip))).rejects.toMatchObject({ status: 429 });
    await expect(signIn(parseInput(loginSchema, { email: 'ada@example.com', password: 'analytical-engine' }), meta('203.0.113.78'))).resolves.toHaveProperty('location');
  });

  it('limits sign-ups per IP', async () => {
    const ip = '203.0.113.99';
    for (let i = 0; i < RATE_LIMITS['sso:register:ip'].limit; i += 1) {
      await signUp(parseInput(registerSchema, { email: `bulk${i}@example.com`, password: 'password-1', nickname: `Bulk ${i}` }), meta(ip));
    }
    await expect(signUp(parseInput(registerSchema, { email: 'one-more@example.com', password: 'password-1', nickname: 'One more' }), meta(ip))).rejects.toMatchObject({
      status: 429,
      errorKey: 'rate_limited',
    });
    const [extra] = await getDb().select().from(credentials).where(eq(credentials.email, 'one-more@example.com'));
    expect(extra).toBeUndefined();
  });
});

describe('one-time codes', () => {
  it('are stored hashed, work once and become a session', async () => {
    const [row] = await getDb().select().from(users).where(eq(users.customUrl, 'ada-lovelace'));
    const code = await issueSsoCode(row!.id);
    const stored = await getDb().select().from(ssoCodes);
    expect(stored.some((entry) => entry.codeHash === code)).toBe(false);
    const session = await exchangeSsoCode(code, 'test agent');
    expect(session).not.toBeNull();
    expect((await findSession(session!.token))?.user.id).toBe(row!.id);
    const [sessionRow] = await getDb().select().from(sessions).where(eq(sessions.tokenHash, hashToken(session!.token)));
    expect(sessionRow!.userAgent).toBe('test agent');
    expect(await exchangeSsoCode(code)).toBeNull(); // single use
  });

  it('expire after two minutes and ignore garbage', async () => {
    const [row] = await getDb().select().from(users).where(eq(users.customUrl, 'ada-lovelace'));
    const issuedAt = new Date(Date.now() - SSO_CODE_TTL_MS - 1000);
    const code = await issueSsoCode(row!.id, issuedAt);
    expect(await consumeSsoCode(code)).toBeNull();
    expect(await consumeSsoCode('')).toBeNull();
    expect(await consumeSsoCode('x'.repeat(500))).toBeNull();
    expect(await consumeSsoCode(codeOf('http://copperhub.test/?code=made-up'))).toBeNull();
  });
});

describe('codes opened in a browser', () => {
  const member = async (url: string) => (await getDb().select().from(users).where(eq(users.customUrl, url)))[0]!.id;

  it('sign in a guest, and give a member signed in as themselves a fresh session', async () => {
    const ada = await member('ada-lovelace');
    const first = await exchangeSsoCodeInBrowser(await issueSsoCode(ada), null);
    expect((await findSession(first!.token))?.user.id).toBe(ada);
    const second = await exchangeSsoCodeInBrowser(await issueSsoCode(ada), first!.token);
    expect((await findSession(second!.token))?.user.id).toBe(ada);
    expect(await findSession(first!.token)).toBeNull();
  });

  it('never replace the session of another member: the code is used up and nothing changes', async () => {
    const ada = await member('ada-lovelace');
    const { userId: grace } = await registerAccount({ email: 'grace.hopper@example.com', password: 'compiler-a0-1952', nickname: 'Grace Hopper' });
    const current = await createSession(ada);
    const code = await issueSsoCode(grace);
    expect(await exchangeSsoCodeInBrowser(code, current.token)).toBeNull();
    expect((await findSession(current.token))?.user.id).toBe(ada);
    expect(await consumeSsoCode(code)).toBeNull();
  });

  it('refuse to mint a code for a request naming a foreign host', async () => {
    await expect(
      signIn(parseInput(loginSchema, { email: 'ada@example.com', password: 'analytical-engine' }), { ...meta(), requestUrl: new URL('http://evil.example/sso/login') }),
    ).rejects.toMatchObject({ status: 400, errorKey: 'host_not_allowed' });
  });
});
