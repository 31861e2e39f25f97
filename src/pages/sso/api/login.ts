import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { TOKEN_COOKIE } from '../../../server/http/cookies.ts';
import { requestMeta } from '../../../server/http/request-meta.ts';
import { loginSchema, signIn } from '../../../server/services/accounts/index.ts';
import { signInResultSchema } from '../../../lib/contract/schemas/sso.ts';

/** Built-in SSO: email + password → `{ location }` (the return address with a one-time code). */
export const { POST, ALL, contract } = defineEndpoint({
  input: loginSchema,
  result: signInResultSchema,
  docs: { summary: 'Sign in (built-in SSO)', description: 'Email and password → the return address with a one-time code; opening it sets the session cookie `token`.', tag: 'sso', errors: ['invalid_credentials', 'account_suspended', 'sso_unknown_site', 'host_not_allowed', 'rate_limited'], example: { email: 'lena-marsh@demo.copperhub.dev', password: 'copperhub-demo', redirect: '/', siteId: 'copperhub', platform: 6 } },
  // The browser's own session cookie (not an app's bearer token) is the session that ends.
  handler: ({ input, context }) => signIn(input, requestMeta(context), context.cookies.get(TOKEN_COOKIE)?.value),
});
