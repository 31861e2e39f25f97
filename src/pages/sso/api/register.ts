import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { requestMeta } from '../../../server/http/request-meta.ts';
import { registerSchema, signUp } from '../../../server/services/sso.ts';

/** Built-in SSO: creates the account and signs it in → `{ location }` like sign-in. */
export const { POST, ALL } = defineEndpoint({
  input: registerSchema,
  handler: ({ input, context }) => signUp(input, requestMeta(context)),
});
