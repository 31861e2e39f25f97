import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { saveProject, saveProjectSchema } from '../../../server/services/releases.ts';

export const { POST, ALL } = defineEndpoint({
  auth: true,
  input: saveProjectSchema,
  handler: ({ input, user }) => saveProject(user.id, input),
});
