/**
 * The mixed load of issue 26's Why, for `npm run bench`: 100 connections at once, 80 guests and
 * 20 signed-in members. Guests read pages and the public API lists; members read pages and the
 * API (their comment list is rendered for them: it holds their own likes) and, one request in
 * ten, write: star or unstar a project, like or unlike it, like or unlike a comment. Latencies are
 * those of every answer of both groups together (not the worse group's percentile), so p50 and
 * p99 are the crowd's. Targets (issue 26, point 6): at least 1,500 req/s, p99 at most 250 ms, no
 * errors.
 *
 * The bench's members are accounts made a moment ago, so their first-day limits hold (120 stars
 * and likes an hour, 30 comment likes a minute): a write refused for that shows as a 429 under
 * "errors", which a much longer `--duration` than the default can reach.
 */
import autocannon from 'autocannon';
import { metOrMissed, percentile } from './stats.ts';

export const MIXED_TARGET = { rps: 1500, p99: 250 };

export interface MixedLoadInput {
  base: string;
  duration: number;
  headers: Record<string, string>;
  members: { cookie: string }[];
  /** Projects read and written; the first has comments. */
  projectIds: string[];
  /** Comments of `projectIds[0]`, to like. */
  commentIds: string[];
}

export interface MixedLoadResult {
  rps: number;
  p50: number;
  p99: number;
  guestP99: number;
  memberP99: number;
  writes: number;
  errors: number;
  /** Answers other than 2xx, by status (and `error`/`timeout` for failed requests). */
  failures: string;
}


export async function measureMembersMixed(input: MixedLoadInput): Promise<MixedLoadResult> {
  const { base, duration, headers, members, projectIds, commentIds } = input;
  const [first] = projectIds;
  const guestLatencies: number[] = [];
  const memberLatencies: number[] = [];
  const failures = new Map<string, number>();
  const fail = (what: string) => failures.set(what, (failures.get(what) ?? 0) + 1);
  const record = (into: number[]) => (client: autocannon.Client) => {
    client.on('response', (status: number, _bytes: number, ms: number) => {
      into.push(ms);
      if (status < 200 || status >= 300) fail(String(status));
    });
  };
  const get = (path: string) => ({ method: 'GET' as const, path });
  // Each connection goes round its list in order, so each list is a mix in itself.
  const guestRequests = [
    get('/'),
    get(`/d-${first}`),
    get(`/api/project/list?pageSize=20`),
    get('/newest'),
    get(`/api/comment/list?id=${first}`),
    get(`/d-${projectIds[1 % projectIds.length]}`),
    get('/search?q=usb'),
    get('/api/project/list?sort=hot&pageSize=20'),
    get('/recommend'),
    get('/api/tag/list'),
  ];
  const guests = autocannon({ url: base, connections: 100 - members.length, duration, headers, requests: guestRequests, setupClient: record(guestLatencies) });

  let memberIndex = 0;
  let writes = 0;
  // Star, like, comment like, then the same undone: every member's state goes back and forth.
  const write = (request: autocannon.Request) => {
    const n = writes++;
    const value = Math.floor(n / 3) % 2 === 0;
    const project = projectIds[n % projectIds.length]!;
    const [path, body] =
      n % 3 === 0
        ? ['/api/project/star', { id: project, value }]
        : n % 3 === 1 || commentIds.length === 0
          ? ['/api/project/like', { id: project, value }]
          : ['/api/comment/like', { commentId: commentIds[n % commentIds.length], value }];
    return { ...request, path, body: JSON.stringify(body), headers: { ...request.headers, 'content-type': 'application/json' } };
  };
  const memberRequests = [
    get('/'),
    get(`/d-${first}`),
    get(`/api/comment/list?id=${first}`),
    get('/newest'),
    get(`/d-${projectIds[2 % projectIds.length]}`),
    get('/api/project/list?pageSize=20'),
    get('/search?q=usb'),
    get(`/d-${projectIds[3 % projectIds.length]}`),
    get('/api/project/list?sort=hot&pageSize=20'),
    { method: 'POST' as const, path: '/api/project/star', setupRequest: write },
  ];
  const signedIn = autocannon({
    url: base,
    connections: members.length,
    duration,
    headers: { ...headers, origin: base },
    setupClient: (client) => {
      client.setHeaders({ ...headers, origin: base, cookie: members[memberIndex++ % members.length]!.cookie });
      record(memberLatencies)(client);
    },
    requests: memberRequests,
  });
  const [g, m] = await Promise.all([guests, signedIn]);
  if (g.errors + m.errors) failures.set('error', g.errors + m.errors);
  if (g.timeouts + m.timeouts) failures.set('timeout', g.timeouts + m.timeouts);
  const all = [...guestLatencies, ...memberLatencies].sort((a, b) => a - b);
  guestLatencies.sort((a, b) => a - b);
  memberLatencies.sort((a, b) => a - b);
  return {
    rps: g.requests.average + m.requests.average,
    p50: percentile(all, 50),
    p99: percentile(all, 99),
    guestP99: percentile(guestLatencies, 99),
    memberP99: percentile(memberLatencies, 99),
    writes,
    errors: [...failures.values()].reduce((sum, count) => sum + count, 0),
    failures: [...failures].map(([what, count]) => `${what} × ${count}`).join(', '),
  };
}

/** The result as a Markdown table with the targets and whether each was met. */
export function mixedTable(result: MixedLoadResult, members: number, duration: number): string {
  const ms = (value: number) => Math.round(value).toLocaleString('en-US');
  return [
    `100 connections for ${duration} s: ${100 - members} guests reading pages and API lists, ${members} members reading pages and API and writing one request in ten (${result.writes.toLocaleString('en-US')} stars, likes and comment likes, set and unset). p50 and p99 over every answer of both groups.`,
    '',
    '| | req/s | p50 ms | p99 ms | guests p99 ms | members p99 ms | errors |',
    '|---|---:|---:|---:|---:|---:|---:|',
    `| measured | ${Math.round(result.rps).toLocaleString('en-US')} | ${ms(result.p50)} | ${ms(result.p99)} | ${ms(result.guestP99)} | ${ms(result.memberP99)} | ${result.errors}${result.failures ? ` (${result.failures})` : ''} |`,
    `| target (issue 26) | ≥ ${MIXED_TARGET.rps.toLocaleString('en-US')} | | ≤ ${MIXED_TARGET.p99} | | | 0 |`,
    `| | ${metOrMissed(result.rps >= MIXED_TARGET.rps)} | | ${metOrMissed(result.p99 <= MIXED_TARGET.p99)} | | | ${metOrMissed(result.errors === 0)} |`,
  ].join('\n');
}
