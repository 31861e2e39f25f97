import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { markMessageRead } from '../../../server/services/messages.ts';

export const { POST, ALL } = defineEndpoint({
  auth: true,
  input: z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) }),
  handler: ({ input, user }) => markMessageRead(user.id, input.id),
});
