import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { editProject, editProjectSchema } from '../../../server/services/releases.ts';

export const { POST, ALL } = defineEndpoint({
  auth: true,
  input: editProjectSchema,
  handler: ({ input, user }) => editProject(user.id, input),
});
