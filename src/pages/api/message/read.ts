import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { markMessageRead } from '../../../server/services/notifications/index.ts';
import { messageReadSchema } from '../../../lib/contract/schemas/conversation.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  input: z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) }),
  result: messageReadSchema,
  docs: { summary: 'Mark one message read', tag: 'messages', errors: ['message_not_found'], example: { id: EXAMPLE_IDS.message } },
  handler: ({ input, user }) => markMessageRead(user.id, input.id),
});
