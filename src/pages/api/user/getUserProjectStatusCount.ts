import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { countUserProjectsByStatus } from '../../../server/services/drafts.ts';

export const { GET, POST, ALL } = defineEndpoint({
  auth: true,
  methods: ['GET', 'POST'],
  handler: ({ user }) => countUserProjectsByStatus(user.id),
});
