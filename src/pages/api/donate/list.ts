import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { pagingSchema } from '../../../server/http/validation.ts';
import { listDonations } from '../../../server/services/site.ts';

export const { GET, POST, ALL } = defineEndpoint({
  methods: ['GET', 'POST'],
  input: pagingSchema,
  handler: ({ input }) => listDonations(input),
});
