import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { commentIdSchema, likeComment } from '../../../server/services/community/index.ts';
import { likeResultSchema } from '../../../lib/contract/schemas/projects.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  input: z.object({ commentId: commentIdSchema, value: z.boolean() }),
  result: likeResultSchema,
  docs: { summary: 'Like or unlike a comment', description: 'Idempotent: `value` is the state wanted.', tag: 'comments', errors: ['comment_not_found', 'rate_limited'], example: { commentId: EXAMPLE_IDS.comment, value: true } },
  handler: ({ input, user }) => likeComment(user.id, input.commentId, input.value),
});
