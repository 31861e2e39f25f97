import { defineEndpoint } from '../../../../server/http/endpoint.ts';
import { staffMember, addProjectToCollection } from '../../../../server/services/staff/index.ts';
import { changeOf, collectionProjectInputSchema, staffCollectionSchema } from '../../../../lib/contract/schemas/staff.ts';
import { EXAMPLE_IDS } from '../../../../lib/contract/schemas/examples.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  role: 'admin',
  input: collectionProjectInputSchema,
  result: changeOf(staffCollectionSchema),
  docs: { summary: 'Add a project at the end of a collection', tag: 'staff', errors: ['collection_not_found', 'project_not_found'], example: { name: EXAMPLE_IDS.collection, project: EXAMPLE_IDS.project } },
  handler: ({ input, user }) => addProjectToCollection(staffMember(user), input),
});
