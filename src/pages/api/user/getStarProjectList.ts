import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { pagingSchema, z } from '../../../server/http/validation.ts';
import { listStarredProjects } from '../../../server/services/projects/index.ts';
import { projectPageSchema } from '../../../lib/contract/schemas/projects.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';

export const { GET, POST, ALL, contract } = defineEndpoint({
  methods: ['GET', 'POST'],
  input: pagingSchema.extend({ url: z.string().trim().min(1).max(64) }),
  result: projectPageSchema,
  docs: { summary: 'Projects a member starred', description: 'Most recently starred first.', tag: 'users', errors: ['user_not_found'], example: { url: EXAMPLE_IDS.user, page: 1, pageSize: 20 } },
  handler: ({ input, context }) => listStarredProjects(input.url, input, context.locals.locale),
});
