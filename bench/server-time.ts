/**
 * Server time for `npm run bench` (issue 26, point 2): one request at a time, how long the server
 * itself took, as its request log says (`durationMs` of the JSON line it writes when an answer is
 * done), so the load generator's own time and the loopback are left out. `tapServerLog` reads the
 * server's stdout (piped, not inherited); `benchServerTime` measures an uncached guest render and a
 * member's render of `/d-{id}`, `/`, `/newest` and `/search`.
 */
import type { Readable } from 'node:stream';
import { metOrMissed, percentile } from './stats.ts';

export interface ServerLog {
  /** Keeps the request lines written from now on, until `stop`. */
  record(): void;
  stop(): void;
  /** The `durationMs` of the request whose answer carried `x-request-id: id`, once its line is written. */
  durationOf(id: string): Promise<number>;
}

/**
 * Reads the server's log lines from `stdout`. Request lines are only parsed while recording (a
 * load test makes thousands a second, and parsing them all would load the machine the server runs
 * on, and printing them hides everything else); every other line, and any request that failed on
 * the server, is passed on to this process's stdout as the inherited output used to be.
 */
export function tapServerLog(stdout: Readable): ServerLog {
  const waiting = new Map<string, (ms: number) => void>();
  // A line is mostly written before the client has read its answer: kept for the asker.
  const early = new Map<string, number>();
  let recording = false;
  let rest = '';
  stdout.setEncoding('utf8');
  stdout.on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      const request = line.includes('"msg":"request"');
      if (!request || line.includes('"level":50')) {
        process.stdout.write(`${line}\n`);
        if (!request) continue;
      }
      if (!recording) continue;
      const entry = JSON.parse(line) as { requestId?: string; durationMs?: number };
      if (!entry.requestId || entry.durationMs === undefined) continue;
      const resolve = waiting.get(entry.requestId);
      if (resolve) {
        waiting.delete(entry.requestId);
        resolve(entry.durationMs);
      } else {
        early.set(entry.requestId, entry.durationMs);
        if (early.size > 1000) early.delete(early.keys().next().value!);
      }
    }
  });
  return {
    record() {
      recording = true;
    },
    stop() {
      recording = false;
      early.clear();
    },
    durationOf(id) {
      const known = early.get(id);
      if (known !== undefined) {
        early.delete(id);
        return Promise.resolve(known);
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          reject(new Error(`no request log line for ${id} within 5 s`));
        }, 5000);
        waiting.set(id, (ms) => {
          clearTimeout(timer);
          resolve(ms);
        });
      });
    },
  };
}


const REQUESTS = 100;
/** Enough for the member's `/d-{id}` to have passed every project once (the bench reads 20), so its guest pages are cached. */
const WARM_UP = 20;
/** The target: at most 5 ms of server time at p50. */
const TARGET_MS = 5;

interface Case {
  name: string;
  /** The address of the `i`th request (warm-up ones included). */
  path: (i: number) => string;
  /**
   * A member's case: their session cookie. Each address is first read by a guest (untimed), so
   * the member's first request of it is filled in from the cached guest page ("first view"); the
   * same request again is served from the page kept for them ("again", `member-hit`).
   */
  cookie?: string;
}

/**
 * Measures each case one request at a time: WARM_UP requests, then REQUESTS timed by the server's
 * log; answers a Markdown table with p50 and p95 of `durationMs` against the target, and how the
 * answers were served (`X-Page-Cache`: miss for a guest render, fill for a member's page made from
 * the cached guest page, member-hit for one kept for them, none when rendered for them in full).
 */
export async function benchServerTime(base: string, log: ServerLog, options: { projectIds: string[]; cookie: string; headers: Record<string, string> }): Promise<string> {
  const { projectIds, cookie, headers } = options;
  // A request is new to the cache when the cache has never seen its key: the key holds the whole
  // query, so a parameter the page ignores (`bench=<n>`) makes each request a new address that is
  // rendered, as a crawler's or a first visitor's would be.
  const fresh = (path: string) => (i: number) => `${path}${path.includes('?') ? '&' : '?'}bench=${Date.now().toString(36)}-${i}`;
  const project = (i: number) => `/d-${projectIds[i % projectIds.length]}`;
  const cases: Case[] = [
    { name: '`/d-{id}`, guest, uncached', path: (i) => fresh(project(i))(i) },
    { name: '`/`, guest, uncached', path: fresh('/') },
    { name: '`/newest`, guest, uncached', path: fresh('/newest') },
    { name: '`/search?q=usb`, guest, uncached', path: fresh('/search?q=usb') },
    { name: '`/d-{id}`, member', path: (i) => fresh(project(i))(i), cookie },
    { name: '`/`, member', path: fresh('/'), cookie },
    { name: '`/newest`, member', path: fresh('/newest'), cookie },
    { name: '`/search?q=usb`, member', path: fresh('/search?q=usb'), cookie },
  ];
  const timed = async (path: string, cookie?: string) => {
    const response = await fetch(`${base}${path}`, { headers: { ...headers, ...(cookie ? { cookie } : {}) } });
    await response.arrayBuffer();
    return response;
  };
  const row = (name: string, times: number[], servedAs: Map<string, number>, errors: number) => {
    times.sort((a, b) => a - b);
    const p50 = percentile(times, 50);
    const served = [...servedAs].map(([state, count]) => `${state} ${count}`).join(', ');
    return `| ${name} | ${p50.toFixed(1)} | ${percentile(times, 95).toFixed(1)} | ${(times.at(-1) ?? 0).toFixed(1)} | ${served} | ${errors} | ≤ ${TARGET_MS} | ${metOrMissed(p50 <= TARGET_MS)} |`;
  };
  const rows: string[] = [];
  log.record();
  try {
    for (const test of cases) {
      console.log(`[bench] server time: ${test.name}`);
      // Two series for a member: their first view of each address, and the same view again.
      const series = test.cookie ? [`${test.name}, first view`, `${test.name}, again`] : [test.name];
      const times = series.map(() => [] as number[]);
      const servedAs = series.map(() => new Map<string, number>());
      const errors = series.map(() => 0);
      for (let i = 0; i < WARM_UP + REQUESTS; i += 1) {
        const path = test.path(i);
        if (test.cookie) await timed(path);
        for (let s = 0; s < series.length; s += 1) {
          const response = await timed(path, test.cookie);
          if (i < WARM_UP) continue;
          if (!response.ok) errors[s]! += 1;
          const state = response.headers.get('x-page-cache') ?? 'none';
          servedAs[s]!.set(state, (servedAs[s]!.get(state) ?? 0) + 1);
          times[s]!.push(await log.durationOf(response.headers.get('x-request-id')!));
        }
      }
      series.forEach((name, s) => rows.push(row(name, times[s]!, servedAs[s]!, errors[s]!)));
    }
  } finally {
    log.stop();
  }
  return [
    `One request at a time, ${REQUESTS} per row after ${WARM_UP} warm-up requests; the time is the server's own (\`durationMs\` of its request log line, matched by \`X-Request-Id\`). Every address carries a parameter the page ignores, new on every request, so each is new to the cache: a guest's is rendered (a miss); a member's address is first read by a guest (untimed), then the member's first view is filled in from that cached guest page ("fill" under \`X-Page-Cache\`) and the same view again is answered from the page kept for them ("member-hit"). Target (issue 26, point 2): p50 at most ${TARGET_MS} ms.`,
    '',
    '| request | p50 ms | p95 ms | max ms | served as (`X-Page-Cache`) | errors | target p50 ms | |',
    '|---|---:|---:|---:|---|---:|---:|---|',
    ...rows,
  ].join('\n');
}
