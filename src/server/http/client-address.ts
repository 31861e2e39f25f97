import type http from 'node:http';
import proxyaddr from 'proxy-addr';

/**
 * Which proxies are trusted: the nearest `hops` of them (`TRUST_PROXY=2`; `1` or `true`, one), or
 * those at these addresses and ranges (`TRUST_PROXY=10.0.0.5,10.1.0.0/16`). `true` is one hop, not
 * Express's "every hop": that would let any client name its own address.
 */
export type ProxyTrust = { hops: number } | { addresses: string[] };

/** `TRUST_PROXY` as `ProxyTrust`: off when unset, empty, `0` or `false`. */
export function readProxyTrust(value: string | undefined): ProxyTrust | null {
  const text = (value ?? '').trim().toLowerCase();
  if (text === '' || text === '0' || text === 'false') return null;
  if (text === 'true') return { hops: 1 };
  if (/^\d+$/.test(text)) return { hops: Number(text) };
  return { addresses: text.split(',').map((item) => item.trim()).filter(Boolean) };
}

/**
 * Who sent a request. Behind proxies, the socket's peer is the nearest proxy; each proxy appends
 * the address it received from to `X-Forwarded-For`. Read from the right, through the trusted
 * proxies only (`TRUST_PROXY`, see `ProxyTrust`): the first address not trusted is the client, and
 * whatever the client itself wrote before it is ignored. proxy-addr is Express's own reading of
 * that header (the same rules as its `trust proxy`), kept by the Express project.
 */
export interface RequestClient {
  /** The client's address: per-address limits and view counts count it. */
  ip: string;
  /** Whether the socket's peer is a trusted proxy: only then are its `X-Forwarded-Proto` and `X-Request-Id` believed. */
  viaTrustedProxy: boolean;
}

const compiled = new WeakMap<ProxyTrust, (address: string, hop: number) => boolean>();

function trustOf(trust: ProxyTrust): (address: string, hop: number) => boolean {
  let test = compiled.get(trust);
  if (!test) {
    test = 'hops' in trust ? (_address, hop) => hop < trust.hops : proxyaddr.compile(trust.addresses);
    compiled.set(trust, test);
  }
  return test;
}

/** What is wrong with `trust`, in a sentence naming the variable, or null. */
export function proxyTrustProblem(trust: ProxyTrust): string | null {
  if ('hops' in trust) return trust.hops >= 1 && trust.hops <= 10 ? null : 'TRUST_PROXY must be a number of proxies from 1 to 10, or their addresses.';
  try {
    trustOf(trust);
    return null;
  } catch {
    return `TRUST_PROXY must be a number of proxies, or their addresses and ranges separated by commas, such as 10.0.0.5,10.1.0.0/16 (got "${trust.addresses.join(',')}").`;
  }
}

/** The client of `req` and whether it came through a trusted proxy. */
export function requestClient(req: http.IncomingMessage, trust: ProxyTrust | null): RequestClient {
  const peer = req.socket.remoteAddress ?? 'unknown';
  if (!trust || peer === 'unknown') return { ip: peer, viaTrustedProxy: false };
  const test = trustOf(trust);
  return { ip: proxyaddr(req, test), viaTrustedProxy: test(peer, 0) };
}
