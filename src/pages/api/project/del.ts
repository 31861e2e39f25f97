import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { deleteProject } from '../../../server/services/projects/index.ts';
import { idResultSchema } from '../../../lib/contract/schemas/common.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  input: z.object({ id: z.string().trim().min(1).max(64) }),
  result: idResultSchema,
  docs: { summary: 'Delete a project', description: 'Only its owner may.', tag: 'projects', errors: ['project_not_found', 'forbidden'], example: { id: EXAMPLE_IDS.project } },
  handler: ({ input, user }) => deleteProject(user.id, input.id),
});
