import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { markAllMessagesRead } from '../../../server/services/messages.ts';

export const { POST, ALL } = defineEndpoint({
  auth: true,
  handler: ({ user }) => markAllMessagesRead(user.id),
});
