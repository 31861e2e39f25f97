import { randomInt } from 'node:crypto';
import http from 'node:http';
import { test } from '@playwright/test';

/**
 * Requests from a visitor with an address of their own.
 *
 * The site limits sign-ups (and failed sign-ins) per client address. Every request of Chromium
 * and of Playwright's request contexts leaves from 127.0.0.1, so a suite that gives each test
 * fresh members would, repeated, look like one address opening hundreds of accounts an hour and
 * be refused, as it should. Members a test merely needs are people of their own: they sign up
 * from their own address. Linux routes all of 127.0.0.0/8 to the loopback interface, so
 * `node:http` can leave from any of them (Playwright's contexts cannot choose).
 */

/** A loopback address other than 127.0.0.1; a repeat is harmless, it only adds one hit there. */
export function newVisitorAddress(): string {
  return `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
}

export interface VisitorResponse<T = any> {
  status: number;
  body: T;
}

/** POSTs JSON to `path` of the site under test from `address` and answers the parsed JSON body. */
export function postJsonFrom<T = any>(address: string, path: string, data: unknown): Promise<VisitorResponse<T>> {
  const url = new URL(path, test.info().project.use.baseURL);
  const payload = JSON.stringify(data);
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: 'POST', localAddress: address, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          try {
            resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as T });
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

export interface NewAccount {
  email: string;
  password: string;
  nickname: string;
  redirect?: string;
  siteId?: string;
  platform?: number;
}

/**
 * Creates an account through `POST /sso/api/register`, as a new visitor from an address of
 * their own; answers the SSO envelope (`result.location` signs the account in once opened).
 */
export function registerAsVisitor(account: NewAccount): Promise<VisitorResponse<{ retCode: number; result: { location: string }; errorKey?: string }>> {
  return postJsonFrom(newVisitorAddress(), '/sso/api/register', account);
}
