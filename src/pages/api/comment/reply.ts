import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { commentContentSchema, commentIdSchema, replyToComment } from '../../../server/services/community/index.ts';
import { commentItemSchema } from '../../../lib/contract/schemas/conversation.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  input: z.object({ commentId: commentIdSchema, content: commentContentSchema }),
  result: commentItemSchema,
  docs: { summary: 'Reply to a comment', tag: 'comments', description: 'The same spam rules as `comment/submit`.', errors: ['email_not_verified', 'comment_not_found', 'project_not_found', 'links_not_allowed_yet', 'duplicate_comment', 'rate_limited'], example: { commentId: EXAMPLE_IDS.comment, content: 'Which regulator did you use for the 3.3 V rail?' } },
  handler: ({ input, user }) => replyToComment(user.id, input.commentId, input.content),
});
