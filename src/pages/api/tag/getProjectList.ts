import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { pagingSchema, z } from '../../../server/http/validation.ts';
import { listProjects } from '../../../server/services/projects/index.ts';
import { projectPageSchema } from '../../../lib/contract/schemas/projects.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';
import { cardListTags } from '../../../server/page-cache/tags.ts';

export const { GET, POST, ALL, contract } = defineEndpoint({
  methods: ['GET', 'POST'],
  input: pagingSchema.extend({ slug: z.string().trim().min(1).max(64) }),
  result: projectPageSchema,
  docs: { summary: 'Projects of a tag', description: 'Newest first, the tag’s children included.', tag: 'tags', errors: ['tag_not_found'], example: { slug: EXAMPLE_IDS.tag, page: 1, pageSize: 20 } },
  publicCache: ({ result }) => ({ tags: cardListTags(result.list) }),
  handler: ({ input, context }) => listProjects({ ...input, tag: input.slug, sort: 'newest' }, context.locals.locale),
});
