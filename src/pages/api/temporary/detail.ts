import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { getDraft } from '../../../server/services/projects/index.ts';
import { draftDetailSchema } from '../../../lib/contract/schemas/projects.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';

export const { GET, POST, ALL, contract } = defineEndpoint({
  auth: true,
  methods: ['GET', 'POST'],
  input: z.object({ id: z.string().trim().min(1).max(64) }),
  result: draftDetailSchema,
  docs: { summary: 'A draft', description: 'Its fields as `release/saveProject` takes them, plus its files. Someone else’s draft is answered like a missing one.', tag: 'drafts', errors: ['draft_not_found'], example: { id: EXAMPLE_IDS.draft } },
  handler: ({ input, user }) => getDraft(user.id, input.id),
});
