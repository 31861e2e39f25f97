import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { TOKEN_COOKIE } from '../../../server/http/cookies.ts';
import { requestMeta } from '../../../server/http/request-meta.ts';
import { registerSchema, signUp } from '../../../server/services/accounts/index.ts';
import { signInResultSchema } from '../../../lib/contract/schemas/sso.ts';

/** Built-in SSO: creates the account and signs it in → `{ location }` like sign-in. */
export const { POST, ALL, contract } = defineEndpoint({
  input: registerSchema,
  result: signInResultSchema,
  docs: { summary: 'Sign up (built-in SSO)', description: 'Creates the account and signs it in, answering like sign-in.', tag: 'sso', errors: ['email_taken', 'sso_unknown_site', 'host_not_allowed', 'rate_limited'], example: { email: 'new-member@example.com', password: 'a long passphrase', nickname: 'New Member', redirect: '/', siteId: 'copperhub' } },
  // The browser's own session cookie (not an app's bearer token) is the session that ends.
  handler: ({ input, context }) => signUp(input, requestMeta(context), context.cookies.get(TOKEN_COOKIE)?.value),
});
