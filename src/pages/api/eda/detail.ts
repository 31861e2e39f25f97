import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { getEdaDetail } from '../../../server/services/eda/index.ts';
import { edaDetailSchema } from '../../../lib/contract/schemas/eda.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';

export const { GET, POST, ALL, contract } = defineEndpoint({
  methods: ['GET', 'POST'],
  input: z.object({ id: z.string().trim().min(1).max(64) }),
  result: edaDetailSchema,
  docs: { summary: 'Boards, BOM and placements of a project', description: 'Rendered boards (the owner also sees boards queued, processing or failed), the bill of materials, pick-and-place parts and fabrication downloads.', tag: 'eda', session: 'optional', errors: ['project_not_found', 'not_found'], example: { id: EXAMPLE_IDS.project } },
  handler: ({ input, user }) => getEdaDetail(input.id, user?.id ?? null),
});
