import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { pagingSchema, z } from '../../../server/http/validation.ts';
import { searchProjects } from '../../../server/services/projects/index.ts';
import { searchPageSchema } from '../../../lib/contract/schemas/projects.ts';
import { cardListTags } from '../../../server/page-cache/tags.ts';

export const { GET, POST, ALL, contract } = defineEndpoint({
  methods: ['GET', 'POST'],
  input: pagingSchema.extend({
    q: z.string().trim().min(1).max(100),
    tag: z.string().trim().min(1).max(64).optional(),
    sort: z.enum(['relevance', 'newest', 'stars']).catch('relevance').default('relevance'),
  }),
  result: searchPageSchema,
  docs: { summary: 'Search projects', description: 'Full-text search over titles, summaries and descriptions (Chinese included), with highlights.', tag: 'projects', errors: ['tag_not_found'], example: { q: 'esp32', sort: 'relevance', page: 1, pageSize: 20 } },
  publicCache: ({ result }) => ({ tags: cardListTags(result.list) }),
  handler: ({ input, context }) => searchProjects(input, context.locals.locale),
});
