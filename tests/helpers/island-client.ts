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

/** A browser showing a page of the site: the `fetch` its islands call, and what went out. */
export interface PageBrowser {
  /** Install it with `vi.stubGlobal('fetch', browser.fetch)`: the islands' client looks `fetch` up on every call. */
  fetch: typeof fetch;
  /** Every request as it went over the network, headers added by the browser included. */
  network: Mock<typeof fetch>;
  /** Sets the browser's HttpOnly session cookie, as signing in does (`null`: signed out). */
  setSession(token: string | null): void;
}

/**
 * `fetch` as a browser showing a page of `pageOrigin` sends requests: with the `Origin` header it
 * adds to every write, and the session cookie, which it sends to the page's own origin and to
 * another one only when the call asks for it (`credentials: 'include'`). No script of the page
 * can read that cookie; the islands never handle the token.
 */
export function pageBrowser(pageOrigin: string): PageBrowser {
  const send = globalThis.fetch;
  const network = vi.fn<typeof fetch>((input, init) => send(input, init));
  let session: string | null = null;
  const browserFetch: typeof fetch = (input, init) => {
    const request = input instanceof Request ? input : null;
    const url = new URL(request ? request.url : String(input));
    const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
    const credentials = init?.credentials ?? request?.credentials ?? 'same-origin';
    const headers = new Headers(init?.headers ?? request?.headers);
    if (method !== 'GET' && method !== 'HEAD') headers.set('origin', pageOrigin);
    if (session && (credentials === 'include' || (credentials === 'same-origin' && url.origin === pageOrigin))) headers.set('cookie', `token=${session}`);
    return network(input, { ...init, headers });
  };
  return { fetch: browserFetch, network, setSession: (token) => (session = token) };
}

/** A request the page sent, as the network panel shows it. */
export interface SentRequest {
  /** The address's path, e.g. `/api/user/getUserInfo`. */
  path: string;
  authorization: string | null;
  /** The session cookie that went with it, if any. */
  session: string | null;
}

/** The requests that went out of `browser` since it was made or `browser.network` was last cleared. */
export function sentRequests(browser: PageBrowser): SentRequest[] {
  return browser.network.mock.calls.map(([input, init]) => {
    const request = input instanceof Request ? input : null;
    const headers = new Headers(init?.headers ?? request?.headers);
    return {
      path: new URL(request ? request.url : String(input)).pathname,
      authorization: headers.get('authorization'),
      session: /(?:^|;\s*)token=([^;]*)/.exec(headers.get('cookie') ?? '')?.[1] ?? null,
    };
  });
}
