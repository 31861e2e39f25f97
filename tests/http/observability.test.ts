import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { beginShutdown } from '../../src/server/readiness.ts';
import { useApp } from '../helpers/app.ts';
import { createProject, createUser } from '../helpers/factories.ts';

// This file's server admits scrapes from 10/8 only (never from the loopback the test speaks from)
// and with the token.
process.env.METRICS_ALLOW = '10.0.0.0/8';
process.env.METRICS_TOKEN = 'scrape-token-of-the-test';
const app = useApp({ pageCache: {} });

describe('request ids', () => {
  it('gives every answer an X-Request-Id, a new one per request', async () => {
    const first = await app.request('/');
    const second = await app.request('/healthz');
    expect(first.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.headers['x-request-id']).not.toBe(second.headers['x-request-id']);
  });

  it('ignores an id a client sends without a trusted proxy in front', async () => {
    const answer = await app.request('/healthz', { headers: { 'x-request-id': 'forged-id-12345' } });
    expect(answer.headers['x-request-id']).not.toBe('forged-id-12345');
  });
});

describe('when the database is unreachable', () => {
  it('with the database away, the error page and the API envelope (503, to try again) name the request id, never the error', async () => {
    const admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
    await admin.connect();
    const name = new URL(process.env.DATABASE_URL!).pathname.slice(1);
    try {
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
      const page = await app.request('/newest');
      expect(page.status).toBe(503);
      expect(page.headers['retry-after']).toBe('5');
      const id = page.headers['x-request-id'] as string;
      expect(page.body).toContain(`Request id: ${id}`);
      expect(page.body).toContain('The site cannot reach its database just now.');
      expect(page.body).not.toContain(name);
      const zh = await app.request('/newest', { headers: { 'accept-language': 'zh-CN' } });
      expect(zh.status).toBe(503);
      expect(zh.body).toContain('网站暂时无法连接数据库');
      expect(page.body).not.toMatch(/at .*\.(ts|mjs|js):\d+/);
      const api = await app.request('/api/project/list', { method: 'POST', body: {} });
      expect(api.status).toBe(503);
      expect(api.json()).toMatchObject({ retCode: 503, errorKey: 'database_unavailable', requestId: api.headers['x-request-id'] });
      expect(api.headers['retry-after']).toBe('5');
      expect(api.body).not.toContain(name);
      const ready = await app.request('/readyz');
      expect(ready.status).toBe(503);
      expect(ready.json()).toMatchObject({ database: 'failed' });
    } finally {
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
      await admin.end();
    }
    expect((await app.request('/readyz')).status).toBe(200);
    // Its connection for other instances' purges was cut too: it listens again by itself (and
    // keeps pages again from then on).
    await expect.poll(async () => (await app.request('/readyz')).json<{ purges: string }>().purges, { timeout: 5000 }).toBe('listening');
  });
});

describe('/metrics', () => {
  it('is not found from an address outside METRICS_ALLOW, nor with a wrong token', async () => {
    expect((await app.request('/metrics')).status).toBe(404);
    const wrong = await app.request('/metrics', { headers: { authorization: 'Bearer scrape-token-of-the-tesX' } });
    expect(wrong.status).toBe(404);
    expect(wrong.body).not.toContain('copperhub_');
  });

  it('answers Prometheus text to the token: requests by route pattern, the page cache, the pool, the process', async () => {
    const owner = await createUser();
    const project = await createProject(owner.user.id, { title: 'Metered board' });
    expect((await app.request(`/d-${project.publicId}`)).status).toBe(200);
    expect((await app.request(`/d-${project.publicId}`)).headers['x-page-cache']).toBe('hit');
    expect((await app.request('/api/project/list', { method: 'POST', body: {} })).status).toBeLessThan(500);
    const answer = await app.request('/metrics', { headers: { authorization: 'Bearer scrape-token-of-the-test' } });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toContain('text/plain');
    expect(answer.headers['cache-control']).toBe('no-store');
    const text = answer.body;
    expect(text).toMatch(/copperhub_http_request_duration_seconds_count\{route="\/d-\[id\]",method="GET",status="200"\} 2/);
    expect(text).toMatch(/copperhub_http_request_duration_seconds_count\{route="\/api\/project\/list",method="POST",status="\d+"\} 1/);
    // Never a raw path with an id in it.
    expect(text).not.toContain(`/d-${project.publicId}`);
    expect(text).toMatch(/copperhub_page_cache_requests_total\{result="hit"\} [1-9]/);
    expect(text).toMatch(/copperhub_page_cache_requests_total\{result="miss"\} [1-9]/);
    expect(text).toMatch(/copperhub_db_pool_connections\{state="total"\} [1-9]/);
    expect(text).toContain('copperhub_process_resident_memory_bytes');
    expect(text).toContain('copperhub_job_queue_up');
  });
});

describe('/healthz and /readyz', () => {
  it('/readyz is ready when the database answers and every migration is applied, and 503 once shutdown begins', async () => {
    const ready = await app.request('/readyz');
    expect(ready.status).toBe(200);
    // The workers run in the server process, not in this one.
    expect(ready.json()).toEqual({ status: 'ready', shutdown: 'ok', database: 'ok', migrations: 'ok', queue: 'not_run_here', purges: 'listening' });
    expect(ready.headers['cache-control']).toBe('no-store');

    beginShutdown();
    const stopping = await app.request('/readyz');
    expect(stopping.status).toBe(503);
    expect(stopping.json()).toMatchObject({ status: 'not_ready', shutdown: 'shutting_down', database: 'ok' });
    // Liveness is another question: the process still answers.
    expect((await app.request('/healthz')).status).toBe(200);
  });
});
