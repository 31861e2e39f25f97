/** The `feed` job: delivers recorded activities to followers' feeds and messages. */
import { z } from 'zod';
import { fanOutActivities } from '../../services/community/index.ts';
import type { JobDefinition } from '../queue.ts';

/** A feed job carries nothing: it delivers every activity not yet fanned out. */
const feedPayload = z.object({});

declare module '../queue.ts' {
  interface JobPayloads {
    feed: z.infer<typeof feedPayload>;
  }
}

/** Fans out pending activities; one fan-out at a time, each taking every pending activity, batch after batch. */
export const feedJob: JobDefinition<'feed'> = {
  kind: 'feed',
  payload: feedPayload,
  concurrency: 1,
  handle: async () => {
    await fanOutActivities();
  },
};
