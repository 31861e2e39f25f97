/**
 * Video processing for `npm run bench`: generated clips (H.264/AAC MP4, index at the end, as
 * cameras write them) made playable both ways the video job does it, one at a time: a remux
 * (`-c copy`, index moved to the front) of a 720p clip of 3 Mbit/s, and the 720p H.264 transcode
 * of a 1080p one, each with its poster. Answers a Markdown section with seconds of processing per
 * second of video. Also runnable alone, `node bench/videos.ts`: prints the section and puts it into
 * bench/results.md in place of the previous one, leaving the rest as it was.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ffmpegPath } from '../src/server/media/binaries.ts';
import { prepareForWeb, type PreparedVideo } from '../src/server/media/prepare.ts';
import { probeVideo } from '../src/server/media/probe.ts';
import { runTool } from '../src/server/media/run-tool.ts';
import { write1080pMp4, writeH264Mp4 } from '../tests/helpers/videos.ts';

const HEADING = '## Videos made playable';
const CLIP_SECONDS = 15;

interface Measured {
  name: string;
  input: string;
  result: PreparedVideo;
  probeMs: number;
}

async function measure(name: string, input: string, outDir: string): Promise<Measured> {
  await mkdir(outDir);
  const started = Date.now();
  const probe = await probeVideo(input);
  const probeMs = Date.now() - started;
  const result = await prepareForWeb(input, outDir, probe);
  console.log(`[bench] video ${name}: ${((probeMs + result.elapsedMs) / 1000).toFixed(2)} s`);
  return { name, input: `${probe.videoCodec} ${probe.width}×${probe.height}, ${(probe.bitRate / 1e6).toFixed(1)} Mbit/s`, result, probeMs };
}

export async function benchVideos(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-videos-'));
  try {
    console.log(`[bench] generating a ${CLIP_SECONDS} s 1080p clip`);
    const large = await write1080pMp4(dir, { seconds: CLIP_SECONDS });
    // a 720p camera file under the rate the job copies as it is
    const small = await writeH264Mp4(dir, { seconds: CLIP_SECONDS, width: 1280, height: 720, maxRate: '3M', name: '720p.mp4' });
    const rows = [await measure('remux (H.264/AAC MP4, index at the end)', small, path.join(dir, 'remux')), await measure('transcode to 720p H.264/AAC', large, path.join(dir, 'transcode'))];
    const version = (await runTool(ffmpegPath(), ['-version'], { timeoutMs: 10_000 })).stdout.split('\n')[0] ?? '';
    const seconds = (ms: number) => (ms / 1000).toFixed(2);
    return `${HEADING}

Generated ${CLIP_SECONDS} s clips (\`testsrc2\` and a tone) probed and prepared as the video job does it, one at a time, with its poster: ffmpeg at \`nice 10\` with 2 threads (${version.split(' ').slice(0, 3).join(' ')}). Processing per second of video is what a member waits after the upload, per second of their video.

| step | input | remuxed | output | probe s | prepare s | processing s per video s |
|---|---|---|---|---:|---:|---:|
${rows
  .map(
    ({ name, input, result, probeMs }) =>
      `| ${name} | ${input} | ${result.remuxed ? 'yes' : 'no'} | ${result.width}×${result.height}, ${((result.sizeBytes * 8) / result.durationSeconds / 1e6).toFixed(1)} Mbit/s | ${seconds(probeMs)} | ${seconds(result.elapsedMs)} | ${((probeMs + result.elapsedMs) / 1000 / result.durationSeconds).toFixed(3)} |`,
  )
  .join('\n')}`;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * From the last byte of an upload to a playable video on a running site (`base`): a new member
 * signs up, uploads a 15 s 1080p clip over tus, saves it, and the time until `video/list` says
 * `ready` is measured — the queue's pickup, probe, transcode, poster and storage together.
 */
export async function benchUploadToPlayable(base: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-upload-'));
  try {
    const clip = await readFile(await write1080pMp4(dir, { seconds: CLIP_SECONDS }));
    const email = `bench-${Date.now()}@example.com`;
    const json = async (response: Response) => (await response.json()) as { retCode: number; result: Record<string, unknown> };
    const registered = await json(await fetch(`${base}/sso/api/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'bench-password-42', nickname: 'Bench' }) }));
    const location = new URL(String(registered.result.location), base);
    const back = await fetch(location, { redirect: 'manual' });
    const token = /token=([^;]+)/.exec(back.headers.get('set-cookie') ?? '')?.[1];
    if (!token) throw new Error('bench: could not sign in');
    const api = (endpoint: string, body: unknown) =>
      fetch(`${base}/api/${endpoint}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) }).then(json);
    const ticket = (await api('video/getVideoToken', { name: 'bench.mp4', size: clip.length, mime: 'video/mp4' })).result as { uploadUrl: string; uploadToken: string };
    const created = await fetch(ticket.uploadUrl, {
      method: 'POST',
      headers: { 'tus-resumable': '1.0.0', 'upload-length': String(clip.length), 'upload-metadata': `uploadToken ${Buffer.from(ticket.uploadToken).toString('base64')}` },
    });
    const upload = new URL(created.headers.get('location')!, ticket.uploadUrl);
    await fetch(upload, { method: 'PATCH', headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, body: new Uint8Array(clip) });
    const uploaded = Date.now();
    const saved = (await api('video/saveVideo', { uploadToken: ticket.uploadToken, title: 'Bench clip' })).result as { id: string; owner: { url: string } };
    for (;;) {
      const list = (await api('video/list', { url: saved.owner.url, page: 1, pageSize: 5 })).result as { list: { id: string; status: string }[] };
      const status = list.list.find((video) => video.id === saved.id)?.status;
      if (status === 'ready' || status === 'failed') {
        const seconds = ((Date.now() - uploaded) / 1000).toFixed(1);
        console.log(`[bench] upload to playable: ${seconds} s (${status})`);
        return `From the end of an upload to a playable video, on the running site (a ${CLIP_SECONDS} s 1080p clip of ${(clip.length / 1e6).toFixed(1)} MB, saved, queued, probed, transcoded to 720p, poster, stored): **${seconds} s** (${status}; the queue is polled every 2 s).`;
      }
      if (Date.now() - uploaded > 300_000) throw new Error('bench: the video never became ready');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const section = await benchVideos();
  const note = `\n\n_Videos measured ${new Date().toISOString()} on ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.version}._`;
  console.log(`\n${section}${note}`);
  const results = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results.md');
  const previous = existsSync(results) ? readFileSync(results, 'utf8') : '# Benchmark results\n';
  const start = previous.indexOf(HEADING);
  const kept = start >= 0 ? previous.slice(0, start) + previous.slice(start).replace(/^## Videos made playable[\s\S]*?(?=\n## |$)/, '') : previous;
  writeFileSync(results, `${kept.trimEnd()}\n\n${section}${note}\n`);
}
