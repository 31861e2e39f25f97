import { expect, type APIRequestContext, type BrowserContext } from '@playwright/test';
import { request as requestFactory } from '@playwright/test';

/** The password of every demo account; emails are `<custom_url>@demo.copperhub.dev` (seeder). */
export const DEMO_PASSWORD = 'copperhub-demo';

export interface Envelope<T = any> {
  status: number;
  retCode: number;
  result: T;
  errorKey?: string;
  fields?: Record<string, string>;
}

/** POSTs JSON to `/api/<path>` and returns the envelope with the HTTP status. */
export async function call<T = any>(api: APIRequestContext, path: string, data: Record<string, unknown> = {}): Promise<Envelope<T>> {
  const response = await api.post(`/api/${path}`, { data });
  const body = await response.json();
  return { status: response.status(), ...body };
}

export interface SignedIn {
  token: string;
  /** An API context that sends `Authorization: Bearer <token>`. */
  api: APIRequestContext;
  user: { id: number; url: string; nickname: string; unreadMessages: number };
}

let counter = 0;

/**
 * Signs in over HTTP through the built-in SSO exactly as a browser does: `POST /sso/api/register`
 * or `/sso/api/login` → `{ location }`, then opening `location` sets the `token` cookie.
 */
export async function signInOverHttp(
  baseURL: string,
  credentials: { email: string; password: string; nickname?: string },
): Promise<SignedIn> {
  const browserLike = await requestFactory.newContext({ baseURL });
  const home = await (await browserLike.get('/')).text();
  const siteId = /siteId=([^&"']+)/.exec(home)?.[1];
  const endpoint = credentials.nickname ? '/sso/api/register' : '/sso/api/login';
  const answer = await browserLike.post(endpoint, {
    data: { ...credentials, redirect: `${baseURL}/`, siteId: siteId ? decodeURIComponent(siteId) : undefined, platform: 6 },
  });
  const body = await answer.json();
  expect(body.retCode, JSON.stringify(body)).toBe(0);
  const back = await browserLike.get(body.result.location, { maxRedirects: 0 });
  expect(back.status()).toBe(302);
  const cookie = back.headersArray().find((header) => header.name.toLowerCase() === 'set-cookie' && header.value.startsWith('token='));
  const token = /^token=([^;]+)/.exec(cookie?.value ?? '')?.[1];
  expect(token, 'the SSO return sets the token cookie').toBeTruthy();
  await browserLike.dispose();
  const api = await requestFactory.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
  const info = await call(api, 'user/getUserInfo');
  expect(info.retCode).toBe(0);
  return { token: token!, api, user: info.result };
}

/** Registers a new member with a unique e-mail address and signs them in. */
export function registerOverHttp(baseURL: string, nickname: string): Promise<SignedIn> {
  counter += 1;
  const email = `conv-${Date.now().toString(36)}-${counter}@example.com`;
  return signInOverHttp(baseURL, { email, password: 'correct horse battery', nickname });
}

/** Puts the session cookie of `who` into a browser context. */
export async function useSession(context: BrowserContext, baseURL: string, who: SignedIn): Promise<void> {
  await context.addCookies([{ name: 'token', value: who.token, url: baseURL, httpOnly: true, sameSite: 'Lax' }]);
}

/** A demo project and its owner, signed in (demo content is seeded on a fresh server). */
export async function demoProjectWithOwner(baseURL: string, request: APIRequestContext, index = 0) {
  const list = await call<{ list: { id: string; title: string; owner: { url: string } }[] }>(request, 'project/list', { page: 1, pageSize: 10 });
  const project = list.result.list[index]!;
  const owner = await signInOverHttp(baseURL, { email: `${project.owner.url}@demo.copperhub.dev`, password: DEMO_PASSWORD });
  return { project, owner };
}
