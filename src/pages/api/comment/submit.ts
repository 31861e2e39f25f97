import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { commentContentSchema, submitComment } from '../../../server/services/comments.ts';

export const { POST, ALL } = defineEndpoint({
  auth: true,
  input: z.object({ id: z.string().trim().min(1).max(64), content: commentContentSchema }),
  handler: ({ input, user }) => submitComment(user.id, input.id, input.content),
});
