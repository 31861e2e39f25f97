import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { getPublicUser } from '../../../server/services/users.ts';

export const { GET, POST, ALL } = defineEndpoint({
  methods: ['GET', 'POST'],
  input: z.object({ url: z.string().trim().min(1).max(64) }),
  handler: ({ input }) => getPublicUser(input.url),
});
