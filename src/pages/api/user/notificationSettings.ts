import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { getNotificationSettings, notificationSettingsInput, saveNotificationSettings } from '../../../server/services/notifications/index.ts';
import { notificationSettingsSchema } from '../../../lib/contract/schemas/follows.ts';

export const { GET, POST, ALL, contract } = defineEndpoint({
  auth: true,
  methods: ['GET', 'POST'],
  input: notificationSettingsInput,
  result: notificationSettingsSchema,
  docs: {
    summary: 'Notification settings',
    description:
      'Per kind (`comments`, `replies`, `stars`, `likes`, `follows`, `makes`, `logs`), whether it arrives as a message on the site and in the daily email digest. GET (or POST `{}`) reads them; POST with kinds, e.g. `{ "follows": { "site": true, "email": false } }`, saves those and answers all of them.',
    tag: 'users',
    // Empty: GET sends the example as a query string, which cannot carry the kinds' objects.
    example: {},
  },
  handler: ({ user, input }) => (Object.keys(input).length ? saveNotificationSettings(user.id, input) : getNotificationSettings(user.id)),
});
