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

/** A server process started by a test, with everything it has written so far. */
export interface ServerProcess {
  child: ChildProcess;
  output: () => string;
}

/**
 * Starts the site's server (`node <args>`, e.g. `src/server/main.ts`) as a process of its own with
 * `env`, once its output shows `readyText`; fails with that output if it stops first.
 */
export async function spawnServer(args: string[], env: NodeJS.ProcessEnv, readyText: string): Promise<ServerProcess> {
  let output = '';
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const started = setInterval(() => {
      if (output.includes(readyText)) {
        clearInterval(started);
        resolve();
      }
    }, 50);
    child.once('exit', (code) => {
      clearInterval(started);
      reject(new Error(`the server stopped (${code}) while starting:\n${output}`));
    });
  });
  return { child, output: () => output };
}
