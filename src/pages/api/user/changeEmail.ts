import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { requestMeta } from '../../../server/http/request-meta.ts';
import { changeEmailSchema, requestEmailChange } from '../../../server/services/accounts/index.ts';
import { emailChangeRequestedSchema } from '../../../lib/contract/schemas/sso.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  input: changeEmailSchema,
  result: emailChangeRequestedSchema,
  docs: { summary: 'Change the sign-in email', description: 'Mails a confirmation link to the new address; the account moves there when the link is opened.', tag: 'users', errors: ['invalid_credentials', 'email_taken', 'rate_limited'], example: { email: 'new-address@example.com', password: 'copperhub-demo' } },
  handler: ({ user, input, context }) => requestEmailChange(user.id, input, requestMeta(context)),
});
