import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { pagingSchema, z } from '../../../server/http/validation.ts';
import type { Page, ProjectPage } from '../../../server/services/cards.ts';
import { listDrafts, type DraftItem } from '../../../server/services/drafts.ts';
import { listOwnProjects } from '../../../server/services/project-list.ts';

export const { GET, POST, ALL } = defineEndpoint({
  auth: true,
  methods: ['GET', 'POST'],
  input: pagingSchema.extend({ status: z.enum(['draft', 'published']).default('published') }),
  handler: async ({ input, user, context }): Promise<Page<DraftItem> | ProjectPage> =>
    input.status === 'draft' ? listDrafts(user.id, input) : listOwnProjects(user.id, input, context.locals.locale),
});
