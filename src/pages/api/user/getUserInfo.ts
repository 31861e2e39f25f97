import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { getUserInfo } from '../../../server/services/accounts/index.ts';
import { userInfoSchema } from '../../../lib/contract/schemas/users.ts';

export const { GET, POST, ALL, contract } = defineEndpoint({
  auth: true,
  methods: ['GET', 'POST'],
  result: userInfoSchema,
  docs: { summary: 'The signed-in member', tag: 'users' },
  handler: ({ user }) => getUserInfo(user.id),
});
