import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { clearTokenCookie } from '../../../server/http/cookies.ts';
import { invalidateSession } from '../../../server/services/sessions.ts';

/** Ends the session of the token this request carries (bearer or cookie). */
export const { POST, ALL } = defineEndpoint({
  auth: true,
  handler: async ({ context }) => {
    if (context.locals.sessionToken) await invalidateSession(context.locals.sessionToken);
    clearTokenCookie(context.cookies);
    context.locals.user = null;
    return { loggedOut: true };
  },
});
