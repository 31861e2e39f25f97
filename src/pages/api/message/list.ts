import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { pagingSchema, z } from '../../../server/http/validation.ts';
import { listMessages } from '../../../server/services/messages.ts';

/** `unreadOnly` arrives as a boolean in JSON and as `true`/`1` in a query string. */
const flag = z.preprocess((value) => (value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value), z.boolean());

export const { GET, POST, ALL } = defineEndpoint({
  auth: true,
  methods: ['GET', 'POST'],
  input: pagingSchema.extend({ unreadOnly: flag.optional() }),
  handler: ({ input, user }) => listMessages(user.id, input),
});
