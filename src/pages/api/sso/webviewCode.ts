import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { webviewCodeSchema } from '../../../lib/contract/schemas/sso.ts';
import { issueWebviewCode } from '../../../server/services/accounts/index.ts';

/**
 * An app signed in with its token (Bearer, or the cookie) → `{ code, expiresAt }`: a one-time
 * code, valid two minutes, for opening a page in a web view as `…?code=<code>`.
 */
export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  result: webviewCodeSchema,
  docs: { summary: 'A one-time code for a web view', description: 'An app signed in with its token gets a code valid two minutes, for opening a page in a web view as `…?code=<code>` (a session token never goes in an address).', tag: 'sso' },
  handler: ({ user }) => issueWebviewCode(user.id),
});
