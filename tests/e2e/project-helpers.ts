import { expect, type APIRequestContext } from '@playwright/test';
import { registerAsVisitor } from './visitor.ts';

export const PASSWORD = 'solder-fumes-42';
let counter = 0;

/**
 * Registers a new member through the built-in SSO API (from an address of their own) and signs
 * `request` in with it: the answered `location` carries a one-time code; opening it (without
 * following the redirect) sets the `token` cookie in the request context's cookie jar, which a
 * browser context shares.
 */
export async function signUp(request: APIRequestContext, nickname: string): Promise<{ email: string; url: string; token: string }> {
  counter += 1;
  const email = `${nickname.toLowerCase().replace(/[^a-z0-9]/g, '')}-${Date.now().toString(36)}-${counter}@example.com`;
  const registered = await registerAsVisitor({ email, password: PASSWORD, nickname });
  expect(registered.status).toBe(200);
  await signIn(request, email);
  const info = await (await request.post('/api/user/getUserInfo', { data: {} })).json();
  expect(info.retCode).toBe(0);
  const cookies = await request.storageState();
  const token = cookies.cookies.find((cookie) => cookie.name === 'token')!.value;
  return { email, url: info.result.url as string, token };
}

/** Signs `request` in as `email` (SSO login → open the returned location once). */
export async function signIn(request: APIRequestContext, email: string): Promise<void> {
  const login = await request.post('/sso/api/login', { data: { email, password: PASSWORD, redirect: '/', siteId: 'copperhub', platform: 6 } });
  const body = await login.json();
  expect(body.retCode).toBe(0);
  const back = await request.get(body.result.location, { maxRedirects: 0 });
  expect(back.status()).toBe(302);
  expect(back.headers()['set-cookie']).toMatch(/token=/);
}

/** POSTs to `/api/<path>` and answers the parsed envelope with the HTTP status. */
export async function api(request: APIRequestContext, path: string, data: Record<string, unknown> = {}) {
  const response = await request.post(`/api/${path}`, { data });
  return { status: response.status(), ...(await response.json()) } as { status: number; retCode: number; result: any; errorKey?: string; fields?: Record<string, string> };
}
