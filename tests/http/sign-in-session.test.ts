import { describe, expect, it } from 'vitest';
import { useApp, type AppResponse } from '../helpers/app.ts';

/**
 * Signing in through the form is signing in: the session the browser had (another member's, or
 * the same member's) ends, and the answered address starts a new one. Only a `?code=` link opened
 * unasked keeps another member's session (tests/integration/sso.test.ts).
 */
const app = useApp();

const PASSWORD = 'copper-pour-77';
const tokenOf = (response: AppResponse) => /^token=([^;]+)/.exec((response.headers['set-cookie'] ?? []).find((value) => value.startsWith('token=')) ?? '')?.[1];

async function whoIs(token: string): Promise<string | null> {
  const response = await app.request('/api/user/getUserInfo', { method: 'POST', body: {}, headers: { cookie: `token=${token}` } });
  return response.status === 200 ? response.json<{ result: { nickname: string } }>().result.nickname : null;
}

/** Posts the sign-in or sign-up form with the browser's cookie, then opens the answered address: the new session's token. */
async function throughForm(form: 'login' | 'register', body: Record<string, string>, cookieToken?: string): Promise<string> {
  const headers = { origin: app.origin(), ...(cookieToken ? { cookie: `token=${cookieToken}` } : {}) };
  const answer = await app.request(`/sso/api/${form}`, { method: 'POST', body: { redirect: '/newest', ...body }, headers });
  expect(answer.json<{ retCode: number }>().retCode, answer.body).toBe(0);
  const location = new URL(answer.json<{ result: { location: string } }>().result.location);
  const opened = await app.request(location.pathname + location.search, { headers: cookieToken ? { cookie: `token=${cookieToken}` } : {} });
  expect(opened.status).toBe(302);
  const token = tokenOf(opened);
  expect(token).toBeTruthy();
  return token!;
}

describe('signing in through the form', () => {
  it('ends the session the browser had, another member’s included, and starts the new member’s', async () => {
    const ada = await throughForm('register', { email: 'ada.session@example.com', password: PASSWORD, nickname: 'Ada Session' });
    const grace = await throughForm('register', { email: 'grace.session@example.com', password: PASSWORD, nickname: 'Grace Session' }, ada);
    // Signing up while signed in as Ada signed Ada out of this browser.
    expect(await whoIs(ada)).toBeNull();
    expect(await whoIs(grace)).toBe('Grace Session');

    // Grace's browser signs in as Ada: Grace's token stops working, the new one is Ada's.
    const adaAgain = await throughForm('login', { email: 'ada.session@example.com', password: PASSWORD }, grace);
    expect(await whoIs(grace)).toBeNull();
    expect(await whoIs(adaAgain)).toBe('Ada Session');

    // The same member signing in again gets a fresh session in place of the old one.
    const adaFresh = await throughForm('login', { email: 'ada.session@example.com', password: PASSWORD }, adaAgain);
    expect(adaFresh).not.toBe(adaAgain);
    expect(await whoIs(adaAgain)).toBeNull();
    expect(await whoIs(adaFresh)).toBe('Ada Session');
  });

  it('keeps the session when the password is wrong', async () => {
    const kept = await throughForm('register', { email: 'kept.session@example.com', password: PASSWORD, nickname: 'Kept Session' });
    const wrong = await app.request('/sso/api/login', { method: 'POST', body: { email: 'kept.session@example.com', password: 'not-the-password' }, headers: { origin: app.origin(), cookie: `token=${kept}` } });
    expect(wrong.json()).toMatchObject({ errorKey: 'invalid_credentials' });
    expect(await whoIs(kept)).toBe('Kept Session');
  });
});
