import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { pagingSchema, z } from '../../../server/http/validation.ts';
import { commentIdSchema, commentSortSchema, listComments } from '../../../server/services/comments.ts';

export const { GET, POST, ALL } = defineEndpoint({
  methods: ['GET', 'POST'],
  input: pagingSchema.extend({
    id: z.string().trim().min(1).max(64),
    sort: commentSortSchema.catch('newest').default('newest'),
    commentId: commentIdSchema.optional(),
  }),
  handler: ({ input, user }) => listComments(input, user?.id ?? null),
});
