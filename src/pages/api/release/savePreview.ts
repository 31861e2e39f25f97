import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { savePreview, savePreviewSchema } from '../../../server/services/releases.ts';

export const { POST, ALL } = defineEndpoint({
  auth: true,
  input: savePreviewSchema,
  handler: ({ input, user }) => savePreview(user.id, input),
});
