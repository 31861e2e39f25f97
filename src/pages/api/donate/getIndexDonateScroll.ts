import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { listRecentDonations } from '../../../server/services/site.ts';

export const { GET, POST, ALL } = defineEndpoint({
  methods: ['GET', 'POST'],
  handler: () => listRecentDonations(20),
});
