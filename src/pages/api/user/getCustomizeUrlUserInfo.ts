import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { getPublicUser } from '../../../server/services/community/index.ts';
import { publicUserSchema } from '../../../lib/contract/schemas/users.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';

export const { GET, POST, ALL, contract } = defineEndpoint({
  methods: ['GET', 'POST'],
  input: z.object({ url: z.string().trim().min(1).max(64) }),
  result: publicUserSchema,
  docs: { summary: 'A member by custom URL', tag: 'users', errors: ['user_not_found'], example: { url: EXAMPLE_IDS.user } },
  handler: ({ input, user }) => getPublicUser(input.url, user?.id ?? null),
});
