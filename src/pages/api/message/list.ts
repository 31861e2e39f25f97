import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { pagingSchema, z } from '../../../server/http/validation.ts';
import { listMessages } from '../../../server/services/notifications/index.ts';
import { messagePageSchema } from '../../../lib/contract/schemas/conversation.ts';

/** `unreadOnly` arrives as a boolean in JSON and as `true`/`1` in a query string. */
const flag = z.preprocess((value) => (value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value), z.boolean());

export const { GET, POST, ALL, contract } = defineEndpoint({
  auth: true,
  methods: ['GET', 'POST'],
  input: pagingSchema.extend({ unreadOnly: flag.optional() }),
  result: messagePageSchema,
  docs: { summary: 'The signed-in member’s messages', description: 'Newest first; `unread` counts all unread messages whatever the page.', tag: 'messages', example: { page: 1, pageSize: 20, unreadOnly: false } },
  handler: ({ input, user }) => listMessages(user.id, input),
});
