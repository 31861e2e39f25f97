import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { requestMeta } from '../../../server/http/request-meta.ts';
import { confirmEmailToken, verifySchema } from '../../../server/services/accounts/index.ts';
import { emailConfirmedSchema } from '../../../lib/contract/schemas/sso.ts';

/** Built-in SSO: a confirmation link's token → the address confirmed (sign-up) or the account moved to it (change of address). */
export const { POST, ALL, contract } = defineEndpoint({
  input: verifySchema,
  result: emailConfirmedSchema,
  docs: { summary: 'Confirm an email address (built-in SSO)', description: 'Uses up a confirmation token from a sign-up or a change of address.', tag: 'sso', errors: ['token_invalid', 'email_taken', 'rate_limited'], example: { token: 'the-token-from-the-confirmation-link' } },
  handler: ({ input, context }) => confirmEmailToken(input, requestMeta(context)),
});
