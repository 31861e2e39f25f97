import net from 'node:net';
import { vi, type Mock } from 'vitest';

/**
 * Loads island modules (stores) afresh with their API client (`src/lib/api-client.ts`) calling
 * `base`. The client reads `PUBLIC_API_BASE` once, when it loads, as in a built page; so a test
 * that needs a second address gets second copies of the modules, with state of their own.
 */
export async function loadIslandModules<T>(base: string, load: () => Promise<T>): Promise<T> {
  vi.resetModules();
  vi.stubEnv('PUBLIC_API_BASE', base);
  return load();
}

/** An origin nothing listens on, as when the server cannot be reached: a free port, given back. */
export async function unreachableOrigin(): Promise<string> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

/**
 * `fetch` as a page of `pageOrigin` sends requests: with the `Origin` header a browser adds to
 * every POST (the site refuses form-like POSTs without a matching one). Install it with
 * `vi.stubGlobal('fetch', …)`: the islands' client looks `fetch` up on every call. It is a `vi.fn`,
 * so `sentRequests` can tell what the page sent.
 */
export function pageFetch(pageOrigin: string): Mock<typeof fetch> {
  const send = globalThis.fetch;
  return vi.fn<typeof fetch>((input, init) => {
    const request = input instanceof Request ? input : null;
    const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
    if (method === 'GET' || method === 'HEAD') return send(input, init);
    const headers = new Headers(init?.headers ?? request?.headers);
    headers.set('origin', pageOrigin);
    return send(input, { ...init, headers });
  });
}

/** A request the page sent, as the network panel shows it. */
export interface SentRequest {
  /** The address's path, e.g. `/api/user/getUserInfo`. */
  path: string;
  authorization: string | null;
}

/** The requests sent through `fetch` (a `pageFetch`) since it was installed or last cleared. */
export function sentRequests(fetch: Mock<typeof globalThis.fetch>): SentRequest[] {
  return fetch.mock.calls.map(([input, init]) => {
    const request = input instanceof Request ? input : null;
    const headers = new Headers(init?.headers ?? request?.headers);
    return { path: new URL(request ? request.url : String(input)).pathname, authorization: headers.get('authorization') };
  });
}
