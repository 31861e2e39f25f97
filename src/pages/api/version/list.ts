import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { listVersions } from '../../../server/services/projects/index.ts';
import { versionListSchema } from '../../../lib/contract/schemas/versions.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';

export const { GET, POST, ALL, contract } = defineEndpoint({
  methods: ['GET', 'POST'],
  input: z.object({ id: z.string().trim().min(1).max(64) }),
  result: versionListSchema,
  docs: { summary: 'A project’s versions', description: 'Newest first: number, name, notes, date, the files each was published with (still downloadable) and how far its boards and BOM are read.', tag: 'versions', session: 'optional', errors: ['project_not_found'], example: { id: EXAMPLE_IDS.project } },
  handler: async ({ input, user }) => ({ list: await listVersions(input.id, user?.id ?? null) }),
});
