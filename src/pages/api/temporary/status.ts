import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { getDraftStatus } from '../../../server/services/projects/index.ts';
import { draftStatusSchema } from '../../../lib/contract/schemas/projects.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';

export const { GET, POST, ALL, contract } = defineEndpoint({
  auth: true,
  methods: ['GET', 'POST'],
  input: z.object({ id: z.string().trim().min(1).max(64) }),
  result: draftStatusSchema,
  docs: { summary: 'A draft’s state', tag: 'drafts', errors: ['draft_not_found'], example: { id: EXAMPLE_IDS.draft } },
  handler: ({ input, user }) => getDraftStatus(user.id, input.id),
});
