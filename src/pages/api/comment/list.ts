import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { pagingSchema, z } from '../../../server/http/validation.ts';
import { commentIdSchema, commentSortSchema, listComments, logNumberSchema } from '../../../server/services/community/index.ts';
import { commentListSchema } from '../../../lib/contract/schemas/conversation.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';
import { pageTags } from '../../../server/page-cache/tags.ts';

export const { GET, POST, ALL, contract } = defineEndpoint({
  methods: ['GET', 'POST'],
  input: pagingSchema.extend({
    id: z.string().trim().min(1).max(64),
    sort: commentSortSchema.catch('newest').default('newest'),
    commentId: commentIdSchema.optional(),
    log: logNumberSchema.optional().meta({ description: 'The number of the project’s build log whose comments to list; the project’s own when absent.' }),
  }),
  result: commentListSchema,
  docs: { summary: 'Comments of a project', description: 'A page of top-level comments (`sort` newest or oldest first), each with its newest replies and `replyCount`; with `commentId`, a page of that thread’s replies in the order they were written.', tag: 'comments', session: 'optional', errors: ['project_not_found', 'comment_not_found', 'log_not_found'], example: { id: EXAMPLE_IDS.project, page: 1, pageSize: 20 } },
  publicCache: ({ input }) => ({ tags: [pageTags.project(input.id)] }),
  handler: ({ input, user }) => listComments(input, user?.id ?? null),
});
