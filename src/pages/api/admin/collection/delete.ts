import { defineEndpoint } from '../../../../server/http/endpoint.ts';
import { staffMember, deleteCollection } from '../../../../server/services/staff/index.ts';
import { collectionRefInputSchema, okResultSchema } from '../../../../lib/contract/schemas/staff.ts';
import { EXAMPLE_IDS } from '../../../../lib/contract/schemas/examples.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  role: 'admin',
  input: collectionRefInputSchema,
  result: okResultSchema,
  docs: { summary: 'Delete a collection', description: 'Its projects are not touched.', tag: 'staff', errors: ['collection_not_found'], example: { name: EXAMPLE_IDS.collection } },
  handler: ({ input, user }) => deleteCollection(staffMember(user), input),
});
