import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { hitMemberRateLimitById } from '../../../server/services/core/index.ts';
import { z } from '../../../server/http/validation.ts';
import { setProjectLike } from '../../../server/services/projects/index.ts';
import { likeResultSchema } from '../../../lib/contract/schemas/projects.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  input: z.object({ id: z.string().trim().min(1).max(64), value: z.boolean() }),
  result: likeResultSchema,
  docs: { summary: 'Like or unlike a project', description: 'Idempotent: `value` is the state wanted.', tag: 'projects', errors: ['project_not_found', 'rate_limited'], example: { id: EXAMPLE_IDS.project, value: true } },
  handler: async ({ input, user }) => {
    await hitMemberRateLimitById('reaction:user', user.id);
    const change = await setProjectLike(user.id, input.id, input.value);
    return { liked: change.active, likeCount: change.count };
  },
});
