import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { requestMeta } from '../../../server/http/request-meta.ts';
import { loginSchema, signIn } from '../../../server/services/sso.ts';

/** Built-in SSO: email + password → `{ location }` (the return address with a one-time code). */
export const { POST, ALL } = defineEndpoint({
  input: loginSchema,
  handler: ({ input, context }) => signIn(input, requestMeta(context)),
});
