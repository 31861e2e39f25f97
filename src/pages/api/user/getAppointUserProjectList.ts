import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { pagingSchema, z } from '../../../server/http/validation.ts';
import { listUserProjects } from '../../../server/services/project-list.ts';

export const { GET, POST, ALL } = defineEndpoint({
  methods: ['GET', 'POST'],
  input: pagingSchema.extend({ url: z.string().trim().min(1).max(64) }),
  handler: ({ input, context }) => listUserProjects(input.url, input, context.locals.locale),
});
