import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { pagingSchema, z } from '../../../server/http/validation.ts';
import type { ProjectPage } from '../../../server/services/projects/index.ts';
import { listDrafts, type DraftItem, listOwnProjects } from '../../../server/services/projects/index.ts';
import { pageOf } from '../../../lib/contract/schemas/common.ts';
import { draftItemSchema, projectPageSchema } from '../../../lib/contract/schemas/projects.ts';
import type { Page } from '../../../server/lib/paging.ts';

export const { GET, POST, ALL, contract } = defineEndpoint({
  auth: true,
  methods: ['GET', 'POST'],
  input: pagingSchema.extend({ status: z.enum(['draft', 'published']).default('published') }),
  result: z.union([projectPageSchema, pageOf(draftItemSchema)]),
  docs: { summary: 'The signed-in member’s projects', description: '`status: published` (default): their published projects; `draft`: their draft box.', tag: 'users', example: { status: 'draft', page: 1, pageSize: 20 } },
  handler: async ({ input, user, context }): Promise<Page<DraftItem> | ProjectPage> =>
    input.status === 'draft' ? listDrafts(user.id, input) : listOwnProjects(user.id, input, context.locals.locale),
});
