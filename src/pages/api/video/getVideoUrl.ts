import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { getVideoPlayback } from '../../../server/services/videos.ts';

export const { GET, POST, ALL } = defineEndpoint({
  methods: ['GET', 'POST'],
  input: z.object({ id: z.string().trim().min(1).max(64) }),
  handler: ({ input, user }) => getVideoPlayback(input.id, user?.id ?? null),
});
