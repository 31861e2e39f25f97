import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { editProfile, editProfileSchema } from '../../../server/services/profiles.ts';

export const { POST, ALL } = defineEndpoint({
  auth: true,
  input: editProfileSchema,
  handler: ({ user, input }) => editProfile(user.id, input),
});
