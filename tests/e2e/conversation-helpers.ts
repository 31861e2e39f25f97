import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, type APIRequestContext, type BrowserContext, type Page, request as requestFactory } from '@playwright/test';
import { registerAsVisitor } from './visitor.ts';

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
 * (from the new member's own address) or `/sso/api/login` → `{ location }`, then opening
 * `location` sets the `token` cookie.
 */
export async function signInOverHttp(
  baseURL: string,
  credentials: { email: string; password: string; nickname?: string },
): Promise<SignedIn> {
  const browserLike = await requestFactory.newContext({ baseURL });
  const home = await (await browserLike.get('/')).text();
  const siteId = /siteId=([^&"']+)/.exec(home)?.[1];
  const form = { ...credentials, redirect: `${baseURL}/`, siteId: siteId ? decodeURIComponent(siteId) : undefined, platform: 6 };
  const body = credentials.nickname
    ? (await registerAsVisitor({ ...form, nickname: credentials.nickname })).body
    : await (await browserLike.post('/sso/api/login', { data: form })).json();
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

/**
 * Signs in as the demo member `url` (seeded months ago, so past a new account's first day: it may
 * post links, which a member registered by the test may not yet).
 */
export function signInAsDemoMember(baseURL: string, url: string): Promise<SignedIn> {
  return signInOverHttp(baseURL, { email: `${url}@demo.copperhub.dev`, password: 'copperhub-demo' });
}

/** Puts the session cookie of `who` into a browser context. */
export async function useSession(context: BrowserContext, baseURL: string, who: SignedIn): Promise<void> {
  await context.addCookies([{ name: 'token', value: who.token, url: baseURL, httpOnly: true, sameSite: 'Lax' }]);
}

/**
 * A new member and a project they just published: a page of the test's own to talk on, so what
 * the test counts and finds there is what it did, however often it runs against one database.
 */
export async function ownProject(baseURL: string, ownerNickname: string) {
  const owner = await registerOverHttp(baseURL, ownerNickname);
  const title = `Talk board ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const published = await call<{ id: string }>(owner.api, 'release/saveProject', { title, licence: 'MIT', publish: true });
  expect(published.retCode, JSON.stringify(published)).toBe(0);
  return { project: { id: published.result.id, title }, owner };
}

/**
 * Waits until the island inside `container` has hydrated (Astro drops `ssr` then). Islands that
 * wait for the visitor (`client:interaction`: comments, stars) start when a pointer comes over them.
 */
export async function hydrated(page: Page, container: string): Promise<void> {
  await page.locator(container).first().hover();
  await page.locator(`${container} astro-island:not([ssr])`).first().waitFor();
}

/**
 * Gives the member with `email` a staff role with the operator's command (`user:role`), against
 * the running site's database. Run with the project's own Node, whatever Node runs Playwright.
 */
export function makeStaff(email: string, role: 'moderator' | 'admin'): void {
  execFileSync(resolve('node_modules/.bin/node'), ['scripts/ops.ts', 'user:role', email, role], { env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR! }, stdio: 'pipe' });
}
