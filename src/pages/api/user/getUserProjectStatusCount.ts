import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { countUserProjectStatus } from '../../../server/services/profiles.ts';

export const { GET, POST, ALL } = defineEndpoint({
  auth: true,
  methods: ['GET', 'POST'],
  handler: ({ user }) => countUserProjectStatus(user.id),
});
