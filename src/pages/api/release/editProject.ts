import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { hitRateLimit } from '../../../server/services/rate-limit.ts';
import { editProject, editProjectSchema } from '../../../server/services/publishing.ts';

export const { POST, ALL } = defineEndpoint({
  auth: true,
  input: editProjectSchema,
  handler: async ({ input, user }) => {
    await hitRateLimit('release:user', user.id);
    return editProject(user.id, input);
  },
});
