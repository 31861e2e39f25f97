import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { requestMeta } from '../../../server/http/request-meta.ts';
import { resetPassword, resetSchema } from '../../../server/services/accounts/index.ts';
import { signInResultSchema } from '../../../lib/contract/schemas/sso.ts';

/** Built-in SSO: a reset link's token and a new password → signed out everywhere, signed in here. */
export const { POST, ALL, contract } = defineEndpoint({
  input: resetSchema,
  result: signInResultSchema,
  docs: { summary: 'Set a new password (built-in SSO)', description: 'Uses up the reset token, sets the password, ends every session of the member and answers like sign-in.', tag: 'sso', errors: ['token_invalid', 'rate_limited'], example: { token: 'the-token-from-the-reset-link', password: 'a new long passphrase' } },
  handler: ({ input, context }) => resetPassword(input, requestMeta(context)),
});
