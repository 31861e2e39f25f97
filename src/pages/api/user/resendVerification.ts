import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { requestMeta } from '../../../server/http/request-meta.ts';
import { resendVerification } from '../../../server/services/accounts/index.ts';
import { mailRequestedSchema } from '../../../lib/contract/schemas/sso.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  result: mailRequestedSchema,
  docs: { summary: 'Send the confirmation link again', description: '`sent: false` when the address is already confirmed (or the site sends no email).', tag: 'users', errors: ['rate_limited'] },
  handler: ({ user, context }) => resendVerification(user.id, requestMeta(context)),
});
