import type http from 'node:http';
import { describe, expect, it } from 'vitest';
import { mayReadMetrics, readMetricsAccess } from '../../src/server/metrics.ts';

/** A request as `/metrics` sees it: where it comes from and what it says. */
const from = (remoteAddress: string, authorization?: string) =>
  ({ socket: { remoteAddress }, headers: authorization ? { authorization } : {} }) as unknown as http.IncomingMessage;

describe('who may read /metrics', () => {
  it('by default only the loopback addresses, IPv4 (also as mapped IPv6) and IPv6', () => {
    const access = readMetricsAccess({});
    expect(mayReadMetrics(from('127.0.0.1'), access)).toBe(true);
    expect(mayReadMetrics(from('127.0.0.53'), access)).toBe(true);
    expect(mayReadMetrics(from('::ffff:127.0.0.1'), access)).toBe(true);
    expect(mayReadMetrics(from('::1'), access)).toBe(true);
    expect(mayReadMetrics(from('10.1.2.3'), access)).toBe(false);
    expect(mayReadMetrics(from('2001:db8::1'), access)).toBe(false);
    // No token configured: a Bearer header opens nothing.
    expect(mayReadMetrics(from('10.1.2.3', 'Bearer '), access)).toBe(false);
  });

  it('METRICS_ALLOW lists addresses and ranges; METRICS_TOKEN admits any address with the exact token', () => {
    const access = readMetricsAccess({ METRICS_ALLOW: '10.0.0.0/8, 192.168.1.7, 2001:db8::/32', METRICS_TOKEN: 'tok-123' });
    expect(mayReadMetrics(from('10.200.0.1'), access)).toBe(true);
    expect(mayReadMetrics(from('192.168.1.7'), access)).toBe(true);
    expect(mayReadMetrics(from('192.168.1.8'), access)).toBe(false);
    expect(mayReadMetrics(from('2001:db8:5::9'), access)).toBe(true);
    expect(mayReadMetrics(from('127.0.0.1'), access)).toBe(false);
    expect(mayReadMetrics(from('203.0.113.9', 'Bearer tok-123'), access)).toBe(true);
    expect(mayReadMetrics(from('203.0.113.9', 'Bearer tok-12'), access)).toBe(false);
    expect(mayReadMetrics(from('203.0.113.9', 'Basic tok-123'), access)).toBe(false);
  });

  it('refuses a METRICS_ALLOW entry that is not an address or range, naming it', () => {
    expect(() => readMetricsAccess({ METRICS_ALLOW: '10.0.0.0/33' })).toThrow('"10.0.0.0/33"');
    expect(() => readMetricsAccess({ METRICS_ALLOW: 'localhost' })).toThrow('"localhost"');
    expect(() => readMetricsAccess({ METRICS_ALLOW: '10.0.0.0/x' })).toThrow('"10.0.0.0/x"');
  });
});
