import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { hitRateLimit } from '../../../server/services/rate-limit.ts';
import { z } from '../../../server/http/validation.ts';
import { setProjectLike } from '../../../server/services/reactions.ts';

export const { POST, ALL } = defineEndpoint({
  auth: true,
  input: z.object({ id: z.string().trim().min(1).max(64), value: z.boolean() }),
  handler: async ({ input, user }) => {
    await hitRateLimit('reaction:user', user.id);
    const change = await setProjectLike(user.id, input.id, input.value);
    return { liked: change.active, likeCount: change.count };
  },
});
