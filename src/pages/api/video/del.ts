import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { deleteVideo } from '../../../server/services/videos.ts';

export const { POST, ALL } = defineEndpoint({
  auth: true,
  input: z.object({ id: z.string().trim().min(1).max(64) }),
  handler: ({ input, user }) => deleteVideo(user.id, input.id),
});
