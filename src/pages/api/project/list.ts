import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { pagingSchema, z } from '../../../server/http/validation.ts';
import { listProjects } from '../../../server/services/project-list.ts';

const input = pagingSchema.extend({
  sort: z.enum(['newest', 'hot', 'recommend']).default('newest'),
  tag: z.string().trim().min(1).max(64).optional(),
});

export const { GET, POST, ALL } = defineEndpoint({
  methods: ['GET', 'POST'],
  input,
  handler: ({ input, context }) => listProjects(input, context.locals.locale),
});
