import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { deleteDraft } from '../../../server/services/projects/index.ts';
import { idResultSchema } from '../../../lib/contract/schemas/common.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  input: z.object({ id: z.string().trim().min(1).max(64) }),
  result: idResultSchema,
  docs: { summary: 'Delete a draft', tag: 'drafts', errors: ['draft_not_found'], example: { id: EXAMPLE_IDS.draft } },
  handler: ({ input, user }) => deleteDraft(user.id, input.id),
});
