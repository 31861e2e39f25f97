import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { countUserProjectStatus } from '../../../server/services/projects/index.ts';
import { projectStatusCountSchema } from '../../../lib/contract/schemas/users.ts';

export const { GET, POST, ALL, contract } = defineEndpoint({
  auth: true,
  methods: ['GET', 'POST'],
  result: projectStatusCountSchema,
  docs: { summary: 'How many projects and drafts', tag: 'users' },
  handler: ({ user }) => countUserProjectStatus(user.id),
});
