import { defineEndpoint } from '../../../../server/http/endpoint.ts';
import { staffMember, removeProjectFromCollection } from '../../../../server/services/staff/index.ts';
import { changeOf, collectionProjectInputSchema, staffCollectionSchema } from '../../../../lib/contract/schemas/staff.ts';
import { EXAMPLE_IDS } from '../../../../lib/contract/schemas/examples.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  role: 'admin',
  input: collectionProjectInputSchema,
  result: changeOf(staffCollectionSchema),
  docs: { summary: 'Take a project out of a collection', tag: 'staff', errors: ['collection_not_found'], example: { name: EXAMPLE_IDS.collection, project: EXAMPLE_IDS.otherProject } },
  handler: ({ input, user }) => removeProjectFromCollection(staffMember(user), input),
});
