import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { markAllMessagesRead } from '../../../server/services/notifications/index.ts';
import { messagesUpdatedSchema } from '../../../lib/contract/schemas/conversation.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  result: messagesUpdatedSchema,
  docs: { summary: 'Mark every message read', tag: 'messages' },
  handler: ({ user }) => markAllMessagesRead(user.id),
});
