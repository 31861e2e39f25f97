import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { pagingSchema, z } from '../../../server/http/validation.ts';
import { listProjects } from '../../../server/services/projects/index.ts';
import { projectPageSchema } from '../../../lib/contract/schemas/projects.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';

const input = pagingSchema.extend({
  sort: z.enum(['newest', 'hot', 'recommend']).default('newest'),
  tag: z.string().trim().min(1).max(64).optional(),
});
import { cardListTags } from '../../../server/page-cache/tags.ts';

export const { GET, POST, ALL, contract } = defineEndpoint({
  methods: ['GET', 'POST'],
  input,
  result: projectPageSchema,
  docs: { summary: 'Published projects', description: 'Newest, hot or recommended first, optionally within a tag (its children included).', tag: 'projects', errors: ['tag_not_found'], example: { sort: 'newest', tag: EXAMPLE_IDS.tag, page: 1, pageSize: 20 } },
  publicCache: ({ result }) => ({ tags: cardListTags(result.list) }),
  handler: ({ input, context }) => listProjects(input, context.locals.locale),
});
