import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { pagingSchema, z } from '../../../server/http/validation.ts';
import { listProjectMakes } from '../../../server/services/community/index.ts';
import { makePageSchema } from '../../../lib/contract/schemas/makes.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';

export const { GET, POST, ALL, contract } = defineEndpoint({
  methods: ['GET', 'POST'],
  input: pagingSchema.extend({ id: z.string().trim().min(1).max(64) }),
  result: makePageSchema,
  docs: { summary: 'Makes of a project', description: 'A page of the project’s makes, newest first.', tag: 'makes', session: 'optional', errors: ['project_not_found'], example: { id: EXAMPLE_IDS.project, page: 1, pageSize: 20 } },
  handler: ({ input, user }) => listProjectMakes(input.id, input, user?.id ?? null),
});
