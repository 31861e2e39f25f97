import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { pagingSchema, z } from '../../../server/http/validation.ts';
import { listProjects } from '../../../server/services/project-list.ts';

export const { GET, POST, ALL } = defineEndpoint({
  methods: ['GET', 'POST'],
  input: pagingSchema.extend({ slug: z.string().trim().min(1).max(64) }),
  handler: ({ input, context }) => listProjects({ ...input, tag: input.slug, sort: 'newest' }, context.locals.locale),
});
