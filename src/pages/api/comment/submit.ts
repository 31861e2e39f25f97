import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { commentContentSchema, submitComment, logNumberSchema } from '../../../server/services/community/index.ts';
import { commentThreadSchema } from '../../../lib/contract/schemas/conversation.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  input: z.object({ id: z.string().trim().min(1).max(64), content: commentContentSchema, log: logNumberSchema.optional().meta({ description: 'The number of the project’s build log to comment on; the project itself when absent.' }) }),
  result: commentThreadSchema,
  docs: { summary: 'Comment on a project', tag: 'comments', description: 'A new account (its first day) may not post links (`links_not_allowed_yet`, with `Retry-After`), and has stricter rate limits; the same text by the same member within an hour is refused (`duplicate_comment`).', errors: ['email_not_verified', 'project_not_found', 'log_not_found', 'links_not_allowed_yet', 'duplicate_comment', 'rate_limited'], example: { id: EXAMPLE_IDS.project, content: 'Lovely layout, thanks for sharing the Gerbers!' } },
  handler: ({ input, user }) => submitComment(user.id, input.id, input.content, input.log),
});
