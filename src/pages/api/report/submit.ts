import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { reportInputSchema, submitReport } from '../../../server/services/staff/index.ts';
import { reportSubmittedSchema } from '../../../lib/contract/schemas/moderation.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  input: reportInputSchema,
  result: reportSubmittedSchema,
  docs: {
    summary: 'Report a project, comment, video or profile',
    description: '`id` is a project’s or video’s id, a comment’s number or a member’s custom URL. `reason` `other` needs a `note`. Reporting the same target again while your report is open answers that report (`merged: true`) and changes nothing.',
    tag: 'moderation',
    errors: ['project_not_found', 'comment_not_found', 'video_not_found', 'user_not_found', 'rate_limited'],
    example: { kind: 'project', id: EXAMPLE_IDS.project, reason: 'spam', note: 'The same board posted five times with shop links.' },
  },
  handler: ({ input, user }) => submitReport(user.id, input),
});
