/**
 * Prometheus metrics (`/metrics`, prom-client): request durations by route pattern, method and
 * status; the guest page cache's hits, stale answers and misses; the job queue's depth and
 * failures per queue; the database pool's connections; Node's own process metrics.
 *
 * Labels are route patterns (`/d-[id]`), never raw paths: one series per route, not per project.
 * The registry lives on `globalThis` for the same reason as the logger (two copies of this module).
 */
import { timingSafeEqual } from 'node:crypto';
import type http from 'node:http';
import { BlockList, isIP } from 'node:net';
import client from 'prom-client';
import { getPoolStats } from './db/client.ts';
import { getQueueStats } from './jobs/queue.ts';

interface MetricsState {
  registry?: client.Registry;
  requestDuration?: client.Histogram<'route' | 'method' | 'status'>;
  pageCacheStats?: (() => Record<string, number>) | null;
}
const state: MetricsState = ((globalThis as { [key: symbol]: MetricsState })[Symbol.for('copperhub.metrics')] ??= {});

function createRegistry(): client.Registry {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: 'copperhub_' });
  state.requestDuration = new client.Histogram({
    name: 'copperhub_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being written, by route pattern, method and status.',
    labelNames: ['route', 'method', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  new client.Gauge({
    name: 'copperhub_page_cache_requests_total',
    help: 'Page requests by how the page cache answered them since start: guests (hit, stale, miss, bypass), members (fill: their places rendered, member_hit: their page or API answer kept for them, member_miss: their API answer rendered and kept).',
    labelNames: ['result'],
    registers: [registry],
    collect() {
      // A counter in the cache's own terms, read when scraped rather than mirrored on every request.
      const stats = state.pageCacheStats?.();
      if (!stats) return;
      for (const [result, value] of Object.entries(stats)) this.set({ result }, value);
    },
  });
  const queue = { depth: 'copperhub_job_queue_jobs', failed: 'copperhub_job_queue_failed_jobs' };
  const queued = new client.Gauge({ name: queue.depth, help: 'Jobs of each queue by state (queued, active) as pg-boss last counted them.', labelNames: ['queue', 'state'], registers: [registry] });
  const failed = new client.Gauge({ name: queue.failed, help: 'Failed jobs each queue still keeps (pg-boss deletes them after its retention).', labelNames: ['queue'], registers: [registry] });
  new client.Gauge({
    name: 'copperhub_job_queue_up',
    help: '1 when this process has the job queue started.',
    registers: [registry],
    async collect() {
      const stats = await getQueueStats().catch(() => null);
      this.set(stats ? 1 : 0);
      for (const row of stats ?? []) {
        queued.set({ queue: row.name, state: 'queued' }, row.queuedCount);
        queued.set({ queue: row.name, state: 'active' }, row.activeCount);
        failed.set({ queue: row.name }, row.failedCount);
      }
    },
  });
  new client.Gauge({
    name: 'copperhub_db_pool_connections',
    help: 'The database pool: connections open (total), idle, and requests waiting for one.',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const pool = getPoolStats();
      if (!pool) return;
      this.set({ state: 'total' }, pool.total);
      this.set({ state: 'idle' }, pool.idle);
      this.set({ state: 'waiting' }, pool.waiting);
    },
  });
  return registry;
}

const registry: client.Registry = (state.registry ??= createRegistry());

/** Records one answered request. */
export function observeRequest(route: string, method: string, status: number, seconds: number): void {
  state.requestDuration!.observe({ route, method, status: String(status) }, seconds);
}

/** Where the page cache's counters are read from when scraped (null: no cache). */
export function watchPageCache(stats: (() => Record<string, number>) | null): void {
  state.pageCacheStats = stats;
}

/** Who may read `/metrics`: `METRICS_ALLOW` addresses/CIDRs (default loopback), or `METRICS_TOKEN` as a Bearer token. */
export interface MetricsAccess {
  allow: BlockList;
  token: string | undefined;
}

/**
 * Reads `METRICS_ALLOW` (comma-separated IPs and CIDRs, IPv4 or IPv6; default `127.0.0.1/8,::1`)
 * and `METRICS_TOKEN`. An entry that is neither stops the start: a typo must not open or close
 * the endpoint silently.
 */
export function readMetricsAccess(env: NodeJS.ProcessEnv = process.env): MetricsAccess {
  const allow = new BlockList();
  const entries = (env.METRICS_ALLOW ?? '127.0.0.0/8,::1').split(',').map((entry) => entry.trim()).filter(Boolean);
  for (const entry of entries) {
    const [address = '', bits] = entry.split('/');
    const family = isIP(address);
    const prefix = bits === undefined ? undefined : Number(bits);
    if (!family || (prefix !== undefined && (!Number.isInteger(prefix) || prefix < 0 || prefix > (family === 4 ? 32 : 128)))) {
      throw new Error(`METRICS_ALLOW must list IP addresses or CIDR ranges, such as 127.0.0.1,10.0.0.0/8 (got "${entry}").`);
    }
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) allow.addAddress(address, type);
    else allow.addSubnet(address, prefix, type);
  }
  return { allow, token: env.METRICS_TOKEN || undefined };
}

/** Whether `req` may read the metrics: the right Bearer token, or a connection from an allowed address. */
export function mayReadMetrics(req: http.IncomingMessage, access: MetricsAccess): boolean {
  const header = req.headers.authorization;
  if (access.token && header?.startsWith('Bearer ')) {
    const given = Buffer.from(header.slice('Bearer '.length));
    const wanted = Buffer.from(access.token);
    // Compared in constant time; a wrong token still falls through to the address check.
    if (given.length === wanted.length && timingSafeEqual(given, wanted)) return true;
  }
  const address = (req.socket.remoteAddress ?? '').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
  const family = isIP(address);
  if (!family) return false;
  return access.allow.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The metrics in Prometheus' text format, with its content type. */
export async function renderMetrics(): Promise<{ body: string; contentType: string }> {
  return { body: await registry.metrics(), contentType: registry.contentType };
}
