import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { commentIdSchema, likeComment } from '../../../server/services/comments.ts';

export const { POST, ALL } = defineEndpoint({
  auth: true,
  input: z.object({ commentId: commentIdSchema, value: z.boolean() }),
  handler: ({ input, user }) => likeComment(user.id, input.commentId, input.value),
});
