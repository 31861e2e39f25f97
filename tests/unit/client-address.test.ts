import type http from 'node:http';
import { describe, expect, it } from 'vitest';
import { readProxyTrust, requestClient } from '../../src/server/http/client-address.ts';

/** A request as Node hands it over: the socket's peer and the headers the peer sent. */
function request(peer: string, forwardedFor?: string): http.IncomingMessage {
  const socket = { remoteAddress: peer };
  return { socket, connection: socket, headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } } as unknown as http.IncomingMessage;
}

describe('the client of a request', () => {
  it('is the socket’s peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(requestClient(request('198.51.100.20', '203.0.113.7'), null)).toEqual({ ip: '198.51.100.20', viaTrustedProxy: false });
  });

  it('is the address the trusted proxy received from, and entries the client wrote before it are ignored', () => {
    const oneHop = readProxyTrust('1');
    expect(requestClient(request('10.0.0.5', '203.0.113.7'), oneHop)).toEqual({ ip: '203.0.113.7', viaTrustedProxy: true });
    // nginx appends the address it saw to what the client sent: the forged first entry is not believed.
    expect(requestClient(request('10.0.0.5', '198.51.100.9, 203.0.113.7'), oneHop).ip).toBe('203.0.113.7');
    // Two proxies in front: the second from the right is the client.
    expect(requestClient(request('10.0.0.5', '198.51.100.9, 203.0.113.7, 10.0.0.9'), readProxyTrust('2')).ip).toBe('203.0.113.7');
  });

  it('trusts only the proxies named by address, so a client connecting directly cannot name another address', () => {
    const named = readProxyTrust('10.0.0.5, 10.1.0.0/16');
    expect(requestClient(request('10.1.4.2', '203.0.113.7'), named)).toEqual({ ip: '203.0.113.7', viaTrustedProxy: true });
    expect(requestClient(request('198.51.100.20', '203.0.113.7'), named)).toEqual({ ip: '198.51.100.20', viaTrustedProxy: false });
    // A chain of trusted proxies is walked through to the first address not among them.
    expect(requestClient(request('10.0.0.5', '198.51.100.9, 203.0.113.7, 10.1.0.3'), named).ip).toBe('203.0.113.7');
  });
});
