/** The `imageVariants` job: makes the AVIF and WebP variants of a stored image. */
import { z } from 'zod';
import { generateImageVariants } from '../../media/image-variants.ts';
import { IMAGE_BATCH, type JobDefinition } from '../queue.ts';

/** An image variants job names the stored original by its storage key. */
const imageVariantsPayload = z.object({ key: z.string().min(1) });

declare module '../queue.ts' {
  interface JobPayloads {
    imageVariants: z.infer<typeof imageVariantsPayload>;
  }
}

/**
 * Makes the variants of the image stored at `key`. One image at a time (sharp encodes on libuv's
 * thread pool, which the site's requests share), `IMAGE_BATCH` taken at once so a backlog runs
 * without a pause between images.
 */
export const imageVariantsJob: JobDefinition<'imageVariants'> = {
  kind: 'imageVariants',
  payload: imageVariantsPayload,
  concurrency: 1,
  batchSize: IMAGE_BATCH,
  handle: async ({ key }) => {
    await generateImageVariants(key);
  },
};
