import { type ChildProcess, spawn } from 'node:child_process';
import { afterEach } from 'vitest';

/**
 * Job worker processes (`src/server/worker.ts`) on this test file's database and `DATA_DIR`, for
 * tests that kill one mid-job; every worker still running is killed after each test.
 */
export function useWorkerProcesses(dataDir: () => string) {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
  });
  return function startWorker(): ChildProcess {
    const child = spawn(process.execPath, ['src/server/worker.ts'], {
      env: { ...process.env, DATA_DIR: dataDir(), NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stderr!.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    children.push(child);
    return child;
  };
}

/** Polls `probe` until `accept` holds (every 25 ms), failing after `timeoutMs` with the last value. */
export async function until<T>(probe: () => Promise<T>, accept: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
