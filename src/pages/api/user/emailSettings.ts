import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { emailSettingsSchema as emailSettingsInput, getAccountEmail, saveAccountEmailSettings } from '../../../server/services/notifications/index.ts';
import { emailSettingsSchema } from '../../../lib/contract/schemas/sso.ts';

export const { GET, POST, ALL, contract } = defineEndpoint({
  auth: true,
  methods: ['GET', 'POST'],
  input: emailSettingsInput.partial(),
  result: emailSettingsSchema,
  docs: { summary: 'Notification email settings', description: 'GET reads them; POST saves any of `comments`, `replies`, `stars` (`daily` or `never`) and answers all of them.', tag: 'users', example: { comments: 'daily', replies: 'daily', stars: 'never' } },
  handler: ({ user, input }) => (Object.keys(input).length ? saveAccountEmailSettings(user.id, input) : getAccountEmail(user.id)),
});
