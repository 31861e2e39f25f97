import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { listActiveBanners } from '../../../server/services/site.ts';

export const { GET, POST, ALL } = defineEndpoint({
  methods: ['GET', 'POST'],
  handler: ({ context }) => listActiveBanners(context.locals.locale),
});
