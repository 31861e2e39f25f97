import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';

/** What a finished ffmpeg/ffprobe run left: its exit code, its standard output and the tail of its errors. */
export interface ToolResult {
  code: number | null;
  /** The signal that ended it (`SIGXCPU` past its CPU limit, `SIGKILL` past its time), else null. */
  signal: NodeJS.Signals | null;
  stdout: string;
  /** The same output as bytes (a frame, a stream written to `pipe:1`). */
  stdoutBytes: Buffer;
  stderr: string;
}

export interface RunToolOptions {
  /** Wall-clock limit: past it the process is killed and the run rejects with `ToolTimeout`. */
  timeoutMs: number;
  /** Run below the site's priority (`nice -n 10`), so pages keep being served during a transcode. */
  lowPriority?: boolean;
  /** Aborting kills the process (a worker shutting down). */
  signal?: AbortSignal;
  /** Largest standard output kept (ffprobe's JSON); more is an error. */
  maxStdoutBytes?: number;
  /** The folder it runs in. */
  cwd?: string;
  /**
   * Its whole environment, instead of the site's: a tool reading members' files never sees
   * `DATABASE_URL`, the signing secret or the S3 keys.
   */
  env?: NodeJS.ProcessEnv;
  /** Kernel limits (util-linux `prlimit`): past them the kernel stops the process, whatever it does. */
  limits?: ToolLimits;
  /** Runs as this user and group, without supplementary groups (`setpriv`): only when the site runs as root. */
  runAs?: { uid: number; gid: number };
}

/** Resource limits of one run, each enforced by the kernel. */
export interface ToolLimits {
  /** CPU seconds (`RLIMIT_CPU`): a loop that never ends is killed, however long the wall clock allows. */
  cpuSeconds?: number;
  /** Virtual memory in bytes (`RLIMIT_AS`): allocations past it fail. */
  addressSpaceBytes?: number;
  /** The largest file it may write, in bytes (`RLIMIT_FSIZE`). */
  fileSizeBytes?: number;
  /** Open files at once (`RLIMIT_NOFILE`). */
  openFiles?: number;
}

/** The process ran past its wall-clock limit and was killed. */
export class ToolTimeout extends Error {
  constructor(command: string, ms: number) {
    super(`${command} killed after ${ms} ms`);
    this.name = 'ToolTimeout';
  }
}

const NICE = '/usr/bin/nice';
const PRLIMIT = '/usr/bin/prlimit';
const NICENESS = 10;
/**
 * util-linux's `setpriv --pdeathsig KILL` execs the tool with a parent-death signal: when the
 * server process dies (`kill -9`, a crash) its ffmpeg dies with it instead of running on as an
 * orphan that nobody's time limit watches any more.
 */
const SETPRIV = '/usr/bin/setpriv';
// ffmpeg repeats itself on broken input; the end says what went wrong.
const STDERR_TAIL = 16 * 1024;

/**
 * Runs a binary with arguments, never through a shell, with stdin closed and a time limit that
 * kills it (SIGKILL: a stuck decoder does not answer SIGTERM). Resolves with whatever exit code it
 * had; the caller decides what a failure means.
 */
export function runTool(command: string, args: string[], options: RunToolOptions): Promise<ToolResult> {
  const { timeoutMs, lowPriority = false, signal, maxStdoutBytes = 4 * 1024 * 1024, limits, runAs } = options;
  const viaNice = lowPriority && existsSync(NICE);
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new Error('aborted'));
    let argv: string[];
    try {
      argv = toolArgv(command, args, { viaNice, limits, runAs });
    } catch (error) {
      return reject(error as Error);
    }
    const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], cwd: options.cwd, env: options.env });
    if (lowPriority && !viaNice && child.pid !== undefined) {
      try {
        os.setPriority(child.pid, NICENESS);
      } catch {
        // the platform refuses: run at normal priority rather than not at all
      }
    }
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = '';
    let failure: Error | undefined;
    const kill = (error: Error) => {
      failure ??= error;
      child.kill('SIGKILL');
    };
    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > maxStdoutBytes) return kill(new Error(`${command} wrote more than ${maxStdoutBytes} bytes`));
      stdout.push(chunk);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL);
    });
    const timer = setTimeout(() => kill(new ToolTimeout(command, timeoutMs)), timeoutMs);
    const onAbort = () => kill(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    signal?.addEventListener('abort', onAbort, { once: true });
    let settled = false;
    const settle = (error: Error | undefined, result?: ToolResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve(result!);
    };
    // a binary that cannot start (missing, not executable) emits 'error' and maybe no 'close'
    child.once('error', (error) => (child.pid === undefined ? settle(error) : (failure ??= error)));
    child.once('close', (code, endSignal) => {
      const bytes = Buffer.concat(stdout);
      settle(failure, { code, signal: endSignal, stdout: bytes.toString('utf8'), stdoutBytes: bytes, stderr: stderr.trim() });
    });
  });
}

/**
 * The command line that starts `command`: setpriv (the parent-death signal, and the user to run
 * as), then prlimit (the kernel limits), then nice, then the tool. Each execs the next, so the
 * child's pid is the tool's own and a kill reaches it.
 */
function toolArgv(command: string, args: string[], options: { viaNice: boolean; limits?: ToolLimits; runAs?: { uid: number; gid: number } }): string[] {
  const argv = options.viaNice ? [NICE, '-n', String(NICENESS), command, ...args] : [command, ...args];
  const limits = options.limits ?? {};
  const flags = [
    limits.cpuSeconds !== undefined ? `--cpu=${limits.cpuSeconds}` : null,
    limits.addressSpaceBytes !== undefined ? `--as=${limits.addressSpaceBytes}` : null,
    limits.fileSizeBytes !== undefined ? `--fsize=${limits.fileSizeBytes}` : null,
    limits.openFiles !== undefined ? `--nofile=${limits.openFiles}` : null,
  ].filter((flag): flag is string => flag !== null);
  if (flags.length > 0) {
    // Limits asked for and not enforceable must not silently become no limits.
    if (!existsSync(PRLIMIT)) throw new Error(`${PRLIMIT} (util-linux) is needed to limit ${command}`);
    argv.unshift(PRLIMIT, ...flags, '--');
  }
  if (options.runAs && !existsSync(SETPRIV)) throw new Error(`${SETPRIV} (util-linux) is needed to run ${command} as another user`);
  if (existsSync(SETPRIV)) {
    const user = options.runAs ? [`--reuid=${options.runAs.uid}`, `--regid=${options.runAs.gid}`, '--clear-groups'] : [];
    argv.unshift(SETPRIV, '--pdeathsig', 'KILL', ...user, '--');
  }
  return argv;
}
