/** The `digest` job: the daily notification digest of every member. */
import { z } from 'zod';
import { sendDailyDigests } from '../../services/notifications/index.ts';
import type { JobDefinition } from '../queue.ts';

/** A digest job carries nothing: it mails every member whose digest is due. */
const digestPayload = z.object({});

declare module '../queue.ts' {
  interface JobPayloads {
    digest: z.infer<typeof digestPayload>;
  }
}

/** Sends today's digests, scheduled at 08:00 UTC; at most one mail per member and day. */
export const digestJob: JobDefinition<'digest'> = {
  kind: 'digest',
  payload: digestPayload,
  concurrency: 1,
  schedule: '0 8 * * *',
  handle: async () => {
    await sendDailyDigests();
  },
};
