import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { commentContentSchema, commentIdSchema, replyToComment } from '../../../server/services/comments.ts';

export const { POST, ALL } = defineEndpoint({
  auth: true,
  input: z.object({ commentId: commentIdSchema, content: commentContentSchema }),
  handler: ({ input, user }) => replyToComment(user.id, input.commentId, input.content),
});
