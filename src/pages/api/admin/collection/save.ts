import { defineEndpoint } from '../../../../server/http/endpoint.ts';
import { staffMember, saveCollection } from '../../../../server/services/staff/index.ts';
import { changeOf, collectionSaveInputSchema, staffCollectionSchema } from '../../../../lib/contract/schemas/staff.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  role: 'admin',
  input: collectionSaveInputSchema,
  result: changeOf(staffCollectionSchema),
  docs: {
    summary: 'Create or edit a collection',
    description: 'Without `id` a collection is created; `name` is its address, `/collection/<name>`.',
    tag: 'staff',
    errors: ['collection_not_found'],
    example: { name: 'desk-clocks', titleEn: 'Desk clocks', titleZh: '桌面时钟' },
  },
  handler: ({ input, user }) => saveCollection(staffMember(user), input),
});
