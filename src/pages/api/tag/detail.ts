import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { getTagDetail } from '../../../server/services/projects/index.ts';
import { tagDetailSchema } from '../../../lib/contract/schemas/projects.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';
import { pageTags } from '../../../server/page-cache/tags.ts';

export const { GET, POST, ALL, contract } = defineEndpoint({
  methods: ['GET', 'POST'],
  input: z.object({ slug: z.string().trim().min(1).max(64) }),
  result: tagDetailSchema,
  docs: { summary: 'A tag', description: 'With its parent, children and number of published projects (its children’s included).', tag: 'tags', errors: ['tag_not_found'], example: { slug: EXAMPLE_IDS.tag } },
  publicCache: () => ({ tags: [pageTags.lists] }),
  handler: ({ input, context }) => getTagDetail(input.slug, context.locals.locale),
});
