import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { getProjectDetail } from '../../../server/services/projects/index.ts';
import { projectDetailSchema } from '../../../lib/contract/schemas/projects.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';

export const { GET, POST, ALL, contract } = defineEndpoint({
  methods: ['GET', 'POST'],
  input: z.object({ id: z.string().trim().min(1).max(64) }),
  result: projectDetailSchema,
  docs: { summary: 'A project', description: 'A card plus the description, licence, attachments, boards, videos and what the viewer did (`viewer`).', tag: 'projects', session: 'optional', errors: ['project_not_found'], example: { id: EXAMPLE_IDS.project } },
  handler: ({ input, user, context }) => getProjectDetail(input.id, user?.id ?? null, context.locals.locale),
});
