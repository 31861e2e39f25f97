/**
 * `/readyz`: whether this instance should be sent traffic. Unlike `/healthz` (the process answers
 * at all), it checks what serving needs — the database answers, every committed migration is
 * applied, the job queue runs where this process is meant to run it — and turns false the moment
 * shutdown begins, so a load balancer stops sending while requests in flight finish.
 */
import { checkDatabase, countPendingMigrations } from './db/client.ts';
import { isQueueRunning } from './jobs/queue.ts';
import { purgeListener } from './page-cache/tags.ts';

interface ReadinessState {
  shuttingDown?: boolean;
  expectQueue?: boolean;
}
const state: ReadinessState = ((globalThis as { [key: symbol]: ReadinessState })[Symbol.for('copperhub.readiness')] ??= {});

/** From now on `/readyz` answers 503 (`shutting_down`). */
export function beginShutdown(): void {
  state.shuttingDown = true;
}

export function isShuttingDown(): boolean {
  return Boolean(state.shuttingDown);
}

/** Whether this process runs the job workers (then `/readyz` waits for them). */
export function expectJobQueue(expected: boolean): void {
  state.expectQueue = expected;
}

export type CheckResult = 'ok' | 'failed' | 'not_run_here';

export interface Readiness {
  ready: boolean;
  checks: { shutdown: 'ok' | 'shutting_down'; database: CheckResult; migrations: CheckResult; queue: CheckResult };
  /** Committed migrations not yet applied, when the database answered. */
  pendingMigrations?: number;
  /**
   * How other instances' purges reach this one: while `reconnecting` it serves as always but keeps
   * no page (it could miss a purge), so it stays ready, only slower.
   */
  purges: ReturnType<typeof purgeListener>;
}

/** Every check, each one named in the answer so an operator sees which one failed. */
export async function checkReadiness(): Promise<Readiness> {
  const database = await checkDatabase();
  const pending = database ? await countPendingMigrations().catch(() => -1) : -1;
  const checks: Readiness['checks'] = {
    shutdown: state.shuttingDown ? 'shutting_down' : 'ok',
    database: database ? 'ok' : 'failed',
    migrations: pending === 0 ? 'ok' : 'failed',
    queue: !state.expectQueue ? 'not_run_here' : isQueueRunning() ? 'ok' : 'failed',
  };
  const ready = Object.values(checks).every((value) => value === 'ok' || value === 'not_run_here');
  return { ready, checks, ...(pending >= 0 ? { pendingMigrations: pending } : {}), purges: purgeListener() };
}
