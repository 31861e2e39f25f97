import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { commentIdSchema, deleteComment } from '../../../server/services/comments.ts';

export const { POST, ALL } = defineEndpoint({
  auth: true,
  input: z.object({ commentId: commentIdSchema }),
  handler: ({ input, user }) => deleteComment(user.id, input.commentId),
});
