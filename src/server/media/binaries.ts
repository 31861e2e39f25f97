import { accessSync, chmodSync, constants, statSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

let ffmpeg: string | undefined;
let ffprobe: string | undefined;

/**
 * The ffmpeg to run: `FFMPEG_PATH` when set (a system build, e.g. Debian's), else the static build
 * that `@ffmpeg-installer/ffmpeg` ships for this platform. Resolved on first use, so a machine with
 * `FFMPEG_PATH` never needs the package's binary.
 */
export function ffmpegPath(): string {
  ffmpeg ??= process.env.FFMPEG_PATH || executable((require('@ffmpeg-installer/ffmpeg') as { path: string }).path);
  return ffmpeg;
}

/** The ffprobe to run: `FFPROBE_PATH` when set, else `@ffprobe-installer/ffprobe`'s static build. */
export function ffprobePath(): string {
  ffprobe ??= process.env.FFPROBE_PATH || executable((require('@ffprobe-installer/ffprobe') as { path: string }).path);
  return ffprobe;
}

/**
 * The installer packages make their binary executable in a postinstall script, which npm skips for
 * packages not listed in `allowScripts` (or with `--ignore-scripts`): do what it would have done.
 */
function executable(file: string): string {
  try {
    accessSync(file, constants.X_OK);
  } catch {
    try {
      chmodSync(file, statSync(file).mode | 0o111);
    } catch (error) {
      throw new Error(`${file} is not executable and could not be made so (${(error as Error).message}); run chmod +x on it or set FFMPEG_PATH/FFPROBE_PATH`);
    }
  }
  return file;
}
