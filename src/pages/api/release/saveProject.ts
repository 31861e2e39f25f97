import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { hitRateLimit } from '../../../server/services/rate-limit.ts';
import { saveProject, saveProjectSchema } from '../../../server/services/publishing.ts';

export const { POST, ALL } = defineEndpoint({
  auth: true,
  input: saveProjectSchema,
  handler: async ({ input, user }) => {
    await hitRateLimit('release:user', user.id);
    return saveProject(user.id, input);
  },
});
