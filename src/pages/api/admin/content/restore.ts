import { defineEndpoint } from '../../../../server/http/endpoint.ts';
import { restoreContent, restoreInputSchema } from '../../../../server/services/staff/index.ts';
import { contentRestoredSchema } from '../../../../lib/contract/schemas/moderation.ts';
import { EXAMPLE_IDS } from '../../../../lib/contract/schemas/examples.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  role: 'moderator',
  input: restoreInputSchema,
  result: contentRestoredSchema,
  docs: {
    summary: 'Show hidden content again',
    description: '`id` as in `report/submit`. Restoring a member (`kind: user`) shows their profile again and lifts a suspension. `restored: false` when nothing was hidden. Written to the audit log.',
    tag: 'moderation',
    errors: ['project_not_found', 'comment_not_found', 'video_not_found', 'user_not_found'],
    example: { kind: 'project', id: EXAMPLE_IDS.project },
  },
  handler: ({ input, user }) => restoreContent(user, input),
});
