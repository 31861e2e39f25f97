import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { getDraftStatus } from '../../../server/services/drafts.ts';

export const { GET, POST, ALL } = defineEndpoint({
  auth: true,
  methods: ['GET', 'POST'],
  input: z.object({ id: z.string().trim().min(1).max(64) }),
  handler: ({ input, user }) => getDraftStatus(user.id, input.id),
});
