import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { listTagTree } from '../../../server/services/tags.ts';

export const { GET, POST, ALL } = defineEndpoint({
  methods: ['GET', 'POST'],
  handler: ({ context }) => listTagTree(context.locals.locale),
});
