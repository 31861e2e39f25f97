import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { deleteProject } from '../../../server/services/publishing.ts';

export const { POST, ALL } = defineEndpoint({
  auth: true,
  input: z.object({ id: z.string().trim().min(1).max(64) }),
  handler: ({ input, user }) => deleteProject(user.id, input.id),
});
