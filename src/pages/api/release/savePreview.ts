import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { hitRateLimit } from '../../../server/services/rate-limit.ts';
import { savePreview, savePreviewSchema } from '../../../server/services/previews.ts';

export const { POST, ALL } = defineEndpoint({
  auth: true,
  input: savePreviewSchema,
  handler: async ({ input, user }) => {
    await hitRateLimit('preview:user', user.id);
    return savePreview(user.id, input);
  },
});
