import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { setProjectStar } from '../../../server/services/projects/index.ts';
import { starResultSchema } from '../../../lib/contract/schemas/projects.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  input: z.object({ id: z.string().trim().min(1).max(64) }),
  result: starResultSchema,
  docs: { summary: 'Unstar a project', description: 'From the member’s star list; the same as `project/star` with `value: false`.', tag: 'users', errors: ['project_not_found'], example: { id: EXAMPLE_IDS.project } },
  handler: async ({ input, user }) => {
    const change = await setProjectStar(user.id, input.id, false);
    return { starred: false, starCount: change.count };
  },
});
