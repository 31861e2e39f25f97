import { defineEndpoint } from '../../../../server/http/endpoint.ts';
import { staffMember, reorderCollection } from '../../../../server/services/staff/index.ts';
import { changeOf, collectionReorderInputSchema, staffCollectionSchema } from '../../../../lib/contract/schemas/staff.ts';
import { EXAMPLE_IDS } from '../../../../lib/contract/schemas/examples.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  role: 'admin',
  input: collectionReorderInputSchema,
  result: changeOf(staffCollectionSchema),
  docs: { summary: 'Put a collection’s projects in a new order', tag: 'staff', errors: ['collection_not_found'], example: { name: EXAMPLE_IDS.collection, projects: [EXAMPLE_IDS.project] } },
  handler: ({ input, user }) => reorderCollection(staffMember(user), input),
});
