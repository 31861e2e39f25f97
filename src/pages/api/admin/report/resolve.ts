import { defineEndpoint } from '../../../../server/http/endpoint.ts';
import { resolveInputSchema, resolveReport } from '../../../../server/services/staff/index.ts';
import { reportResolvedSchema } from '../../../../lib/contract/schemas/moderation.ts';
import { EXAMPLE_IDS } from '../../../../lib/contract/schemas/examples.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  role: 'moderator',
  input: resolveInputSchema,
  result: reportResolvedSchema,
  docs: {
    summary: 'Act on a report: dismiss, hide the content, or suspend the member',
    description: 'Closes every open report on the same target and tells each reporter the outcome. `hide` hides the content from everyone but its author and staff; `suspend` ends the member’s sessions and refuses their sign-in, with `hideContent` also hiding all their projects, comments and videos. Staff cannot be suspended. Written to the audit log with `note`.',
    tag: 'moderation',
    errors: ['report_not_found', 'report_closed', 'user_not_found'],
    example: { id: EXAMPLE_IDS.report, action: 'dismiss', note: 'A fair review, not abuse.' },
  },
  handler: ({ input, user }) => resolveReport(user, input),
});
