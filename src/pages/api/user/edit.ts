import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { editProfile, editProfileSchema } from '../../../server/services/accounts/index.ts';
import { userInfoSchema } from '../../../lib/contract/schemas/users.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  input: editProfileSchema,
  result: userInfoSchema,
  docs: { summary: 'Edit the signed-in member’s profile', description: 'Any of the fields; a changed `url` keeps the former one redirecting.', tag: 'users', errors: ['url_taken', 'upload_not_found'], example: { nickname: 'Lena Marsh', bio: 'Analog tinkerer.', location: 'Berlin', website: 'https://example.com' } },
  handler: ({ user, input }) => editProfile(user.id, input),
});
