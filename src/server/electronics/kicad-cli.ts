/**
 * KiCad's command-line tool, run on members' design sources. A source is untrusted input to a
 * large C++ program, so every run is boxed in: it works in a scratch folder of its own, with an
 * empty `HOME` there (KiCad writes its settings and caches under it), an environment that holds
 * none of the site's secrets, no standard input, kernel limits on CPU time, memory, file size and
 * open files, a wall-clock limit, and — when the site runs as root — as the unprivileged user
 * `nobody`, which can write nothing but the scratch folder it is given.
 *
 * `kicad-cli` 9 comes from Debian's bookworm-backports (`scripts/install-kicad.sh`); `KICAD_CLI_PATH`
 * names another one.
 */
import { accessSync, chownSync, constants, mkdirSync, readdirSync, readFileSync, lstatSync } from 'node:fs';
import path from 'node:path';
import { runTool, type ToolLimits, type ToolResult } from '../media/run-tool.ts';

/** What one run of `kicad-cli` may take. A two-layer board's whole export takes about a second. */
export const KICAD_LIMITS: ToolLimits & { timeoutMs: number } = {
  timeoutMs: 120_000,
  cpuSeconds: 90,
  addressSpaceBytes: 3 * 1024 ** 3,
  fileSizeBytes: 256 * 1024 ** 2,
  openFiles: 512,
};

/**
 * The folder inside the scratch folder that a run gets as its `HOME`: KiCad reads its settings
 * from there, so a design source never brings one of its own (`kicad-project.ts` leaves it out).
 */
export const KICAD_HOME = '.home';

/** The `kicad-cli` to run: `KICAD_CLI_PATH` when set, else the first on the `PATH`; null when none is installed. */
export function kicadCliPath(env: NodeJS.ProcessEnv = process.env): string | null {
  const candidates = env.KICAD_CLI_PATH ? [env.KICAD_CLI_PATH] : (env.PATH ?? '/usr/bin:/bin').split(path.delimiter).map((folder) => path.join(folder, 'kicad-cli'));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here: the next folder of the PATH
    }
  }
  return null;
}

/** `nobody`'s ids, read from the system's user list once per process. */
let nobody: { uid: number; gid: number } | undefined;

/** The unprivileged user a run drops to when the site runs as root: `nobody`, from the system's own user list. */
function unprivilegedUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  if (nobody) return nobody;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('nobody:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  // Running a member's file as root is not an option: no such user means no run.
  if (uid === undefined || gid === undefined) throw new Error('no user "nobody" to run kicad-cli as');
  nobody = { uid: Number(uid), gid: Number(gid) };
  return nobody;
}

/** Hands the scratch folder (and what was copied into it) to `user`, so the run can write there and nowhere else. */
function handOver(folder: string, user: { uid: number; gid: number }): void {
  chownSync(folder, user.uid, user.gid);
  for (const entry of readdirSync(folder)) {
    const file = path.join(folder, entry);
    const stat = lstatSync(file);
    // A link is never followed: its target may be anywhere.
    if (stat.isSymbolicLink()) continue;
    if (stat.isDirectory()) handOver(file, user);
    else chownSync(file, user.uid, user.gid);
  }
}

export interface KicadRunOptions {
  /** A wall-clock limit other than `KICAD_LIMITS.timeoutMs` (tests of the limits). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Another `kicad-cli` than `kicadCliPath()`. */
  command?: string;
}

/**
 * Runs `kicad-cli args` in `scratch` (a folder holding the source's files, which the run may
 * write into) within `KICAD_LIMITS`. Resolves with its exit code and output; the caller decides
 * what a failure means. Rejects with `ToolTimeout` past the wall-clock limit.
 */
export async function runKicadCli(args: string[], scratch: string, options: KicadRunOptions = {}): Promise<ToolResult> {
  const command = options.command ?? kicadCliPath();
  if (!command) throw new Error('kicad-cli is not installed (scripts/install-kicad.sh, or set KICAD_CLI_PATH)');
  const home = path.join(scratch, KICAD_HOME);
  mkdirSync(home, { recursive: true });
  const user = unprivilegedUser();
  if (user) handOver(scratch, user);
  const { timeoutMs, ...limits } = KICAD_LIMITS;
  return runTool(command, args, {
    timeoutMs: options.timeoutMs ?? timeoutMs,
    lowPriority: true,
    signal: options.signal,
    cwd: scratch,
    env: {
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      XDG_CACHE_HOME: path.join(home, '.cache'),
      XDG_DATA_HOME: path.join(home, '.local/share'),
      PATH: '/usr/bin:/bin',
      LANG: 'C.UTF-8',
    },
    limits,
    runAs: user,
  });
}

/** The installed `kicad-cli`'s version (`9.0.8`), or null when none is installed or it does not answer. */
export async function kicadCliVersion(scratch: string): Promise<string | null> {
  if (!kicadCliPath()) return null;
  const result = await runKicadCli(['version'], scratch, { timeoutMs: 20_000 }).catch(() => null);
  const version = result?.code === 0 ? /^\d+\.\d+(?:\.\d+)?/.exec(result.stdout.trim())?.[0] : undefined;
  return version ?? null;
}
