import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { clearTokenCookie } from '../../../server/http/cookies.ts';
import { invalidateSession } from '../../../server/services/accounts/index.ts';
import { loggedOutSchema } from '../../../lib/contract/schemas/sso.ts';

/** Ends the session of the token this request carries (bearer or cookie). */
export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  result: loggedOutSchema,
  docs: { summary: 'Sign out', description: 'Ends the session of the token this request carries (Bearer or cookie) and clears the cookie.', tag: 'sso' },
  handler: async ({ context }) => {
    if (context.locals.sessionToken) await invalidateSession(context.locals.sessionToken);
    clearTokenCookie(context.cookies);
    context.locals.user = null;
    return { loggedOut: true as const };
  },
});
