import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { commentIdSchema, deleteComment } from '../../../server/services/community/index.ts';
import { commentDeletedSchema } from '../../../lib/contract/schemas/conversation.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  input: z.object({ commentId: commentIdSchema }),
  result: commentDeletedSchema,
  docs: { summary: 'Delete a comment', description: 'Its author or the project’s owner may delete it; a comment with replies stays as a tombstone.', tag: 'comments', errors: ['comment_not_found', 'forbidden'], example: { commentId: EXAMPLE_IDS.comment } },
  handler: ({ input, user }) => deleteComment(user.id, input.commentId),
});
