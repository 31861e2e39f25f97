/** The `mail` job: one account email (confirm an address, reset a password, move to a new address). */
import type { z } from 'zod';
import { mailJobSchema, processMailJob } from '../../services/accounts/index.ts';
import type { JobDefinition } from '../queue.ts';

// The payload's schema stays with account email (`mailJobSchema`), which sends these jobs and
// composes their mails from it: declared once, there.
declare module '../queue.ts' {
  interface JobPayloads {
    mail: z.infer<typeof mailJobSchema>;
  }
}

/**
 * Composes and sends one account email (`{ purpose, userId, origin, newEmail? }`): the job mints
 * the link's token itself, so no usable token ever sits in the queue's tables. Two at a time: an
 * SMTP server answers in well under a second. Retried while the SMTP server refuses; one waiting
 * per member and purpose (asking again while one waits sends one mail).
 */
export const mailJob: JobDefinition<'mail'> = {
  kind: 'mail',
  payload: mailJobSchema,
  concurrency: 2,
  handle: async (job) => {
    await processMailJob(job);
  },
};
