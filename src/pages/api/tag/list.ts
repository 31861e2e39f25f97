import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { listTagTree } from '../../../server/services/projects/index.ts';
import { tagNodeSchema } from '../../../lib/contract/schemas/projects.ts';
import { z } from '../../../server/http/validation.ts';
import { pageTags } from '../../../server/page-cache/tags.ts';

export const { GET, POST, ALL, contract } = defineEndpoint({
  methods: ['GET', 'POST'],
  result: z.array(tagNodeSchema),
  docs: { summary: 'The tag tree', description: 'Parents and their children, names in the request’s language.', tag: 'tags' },
  publicCache: () => ({ tags: [pageTags.lists] }),
  handler: ({ context }) => listTagTree(context.locals.locale),
});
