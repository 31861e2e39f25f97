import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { deleteLog, deleteLogInputSchema } from '../../../server/services/community/index.ts';
import { logDeletedSchema } from '../../../lib/contract/schemas/logs.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  input: deleteLogInputSchema,
  result: logDeletedSchema,
  docs: { summary: 'Delete a build log', description: 'Only the project’s owner; its number is never given again and its comments go with it.', tag: 'logs', errors: ['log_owner_only', 'project_not_found', 'log_not_found'], example: { id: EXAMPLE_IDS.project, n: 1 } },
  handler: ({ input, user }) => deleteLog(user.id, input),
});
