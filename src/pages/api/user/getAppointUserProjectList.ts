import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { pagingSchema, z } from '../../../server/http/validation.ts';
import { listUserProjects } from '../../../server/services/projects/index.ts';
import { projectPageSchema } from '../../../lib/contract/schemas/projects.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';
import { cardListTags, pageTags } from '../../../server/page-cache/tags.ts';

export const { GET, POST, ALL, contract } = defineEndpoint({
  methods: ['GET', 'POST'],
  input: pagingSchema.extend({ url: z.string().trim().min(1).max(64) }),
  result: projectPageSchema,
  docs: { summary: 'A member’s published projects', tag: 'users', errors: ['user_not_found'], example: { url: EXAMPLE_IDS.user, page: 1, pageSize: 20 } },
  publicCache: ({ input, result }) => ({ tags: [pageTags.user(input.url), ...cardListTags(result.list)] }),
  handler: ({ input, context }) => listUserProjects(input.url, input, context.locals.locale),
});
