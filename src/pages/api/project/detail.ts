import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { getProjectDetail } from '../../../server/services/project-detail.ts';

export const { GET, POST, ALL } = defineEndpoint({
  methods: ['GET', 'POST'],
  input: z.object({ id: z.string().trim().min(1).max(64) }),
  handler: ({ input, user, context }) => getProjectDetail(input.id, user?.id ?? null, context.locals.locale),
});
