/** The `video` job: probes an uploaded video and prepares it for the web. */
import { z } from 'zod';
import { processVideoJob } from '../../services/media/index.ts';
import type { JobDefinition } from '../queue.ts';

/** A video job names the `videos` row to process. */
const videoPayload = z.object({ videoId: z.string().min(1) });

declare module '../queue.ts' {
  interface JobPayloads {
    video: z.infer<typeof videoPayload>;
  }
}

/**
 * Processes video `videoId`. One at a time: ffmpeg already uses its own threads (at a lowered
 * priority). Like boards, a video is failed on its third start.
 */
export const videoJob: JobDefinition<'video'> = {
  kind: 'video',
  payload: videoPayload,
  concurrency: 1,
  handle: ({ videoId }) => processVideoJob(videoId),
};
