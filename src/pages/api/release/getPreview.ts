import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { getPreview } from '../../../server/services/projects/index.ts';
import { projectDetailSchema } from '../../../lib/contract/schemas/projects.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';

export const { GET, POST, ALL, contract } = defineEndpoint({
  methods: ['GET', 'POST'],
  input: z.object({ id: z.string().trim().min(1).max(64), token: z.string().trim().max(128).optional() }),
  result: projectDetailSchema,
  docs: { summary: 'A preview', description: 'A preview rendered like `project/detail`, for its owner or anyone holding its link token, until it expires.', tag: 'release', session: 'optional', errors: ['preview_not_found'], example: { id: EXAMPLE_IDS.preview, token: EXAMPLE_IDS.previewToken } },
  handler: ({ input, user, context }) => getPreview(input.id, user?.id ?? null, input.token ?? null, context.locals.locale),
});
