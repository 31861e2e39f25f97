import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { getTagDetail } from '../../../server/services/tags.ts';

export const { GET, POST, ALL } = defineEndpoint({
  methods: ['GET', 'POST'],
  input: z.object({ slug: z.string().trim().min(1).max(64) }),
  handler: ({ input, context }) => getTagDetail(input.slug, context.locals.locale),
});
