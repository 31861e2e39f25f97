import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { requestMeta } from '../../../server/http/request-meta.ts';
import { forgotSchema, requestPasswordReset } from '../../../server/services/accounts/index.ts';
import { mailRequestedSchema } from '../../../lib/contract/schemas/sso.ts';

/** Built-in SSO: mails a password reset link; the same answer whether or not the email has an account. */
export const { POST, ALL, contract } = defineEndpoint({
  input: forgotSchema,
  result: mailRequestedSchema,
  docs: { summary: 'Forgot password (built-in SSO)', description: 'Mails a single-use reset link valid one hour when the email has an account. The answer is the same for any email, so it tells nobody who has an account.', tag: 'sso', errors: ['rate_limited'], example: { email: 'lena-marsh@demo.copperhub.dev' } },
  handler: ({ input, context }) => requestPasswordReset(input, requestMeta(context)),
});
