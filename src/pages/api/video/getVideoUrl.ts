import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { getVideoPlayback } from '../../../server/services/media/index.ts';
import { videoPlaybackSchema } from '../../../lib/contract/schemas/videos.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';

export const { GET, POST, ALL, contract } = defineEndpoint({
  methods: ['GET', 'POST'],
  input: z.object({ id: z.string().trim().min(1).max(64) }),
  result: videoPlaybackSchema,
  docs: { summary: 'A signed address to play a video', description: 'Valid until `expiresAt`; the owner may also play a video of an unpublished project.', tag: 'videos', session: 'optional', errors: ['video_not_found'], example: { id: EXAMPLE_IDS.video } },
  handler: ({ input, user }) => getVideoPlayback(input.id, user?.id ?? null),
});
