import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { getPreview } from '../../../server/services/previews.ts';

export const { GET, POST, ALL } = defineEndpoint({
  methods: ['GET', 'POST'],
  input: z.object({ id: z.string().trim().min(1).max(64), token: z.string().trim().max(128).optional() }),
  handler: ({ input, user, context }) => getPreview(input.id, user?.id ?? null, input.token ?? null, context.locals.locale),
});
