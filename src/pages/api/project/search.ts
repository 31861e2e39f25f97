import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { pagingSchema, z } from '../../../server/http/validation.ts';
import { searchProjects } from '../../../server/services/search.ts';

export const { GET, POST, ALL } = defineEndpoint({
  methods: ['GET', 'POST'],
  input: pagingSchema.extend({
    q: z.string().trim().min(1).max(100),
    tag: z.string().trim().min(1).max(64).optional(),
    sort: z.enum(['relevance', 'newest', 'stars']).catch('relevance').default('relevance'),
  }),
  handler: ({ input, context }) => searchProjects(input, context.locals.locale),
});
