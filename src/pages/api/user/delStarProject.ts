import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { setProjectStar } from '../../../server/services/reactions.ts';

export const { POST, ALL } = defineEndpoint({
  auth: true,
  input: z.object({ id: z.string().trim().min(1).max(64) }),
  handler: async ({ input, user }) => {
    const change = await setProjectStar(user.id, input.id, false);
    return { starred: false, starCount: change.count };
  },
});
