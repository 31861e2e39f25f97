import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { issueWebviewCode } from '../../../server/services/sso.ts';

/**
 * An app signed in with its token (Bearer, or the cookie) → `{ code, expiresAt }`: a one-time
 * code, valid two minutes, for opening a page in a web view as `…?code=<code>`.
 */
export const { POST, ALL } = defineEndpoint({
  auth: true,
  handler: ({ user }) => issueWebviewCode(user.id),
});
