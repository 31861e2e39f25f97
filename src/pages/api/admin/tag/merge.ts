import { defineEndpoint } from '../../../../server/http/endpoint.ts';
import { staffMember, mergeTags } from '../../../../server/services/staff/index.ts';
import { changeOf, staffTagSchema, tagMergeInputSchema } from '../../../../lib/contract/schemas/staff.ts';
import { EXAMPLE_IDS } from '../../../../lib/contract/schemas/examples.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  role: 'admin',
  input: tagMergeInputSchema,
  result: changeOf(staffTagSchema),
  docs: { summary: 'Merge a tag into another', description: 'The projects of `from` are tagged `into` (once each), `from` is deleted and its address leads to `into`.', tag: 'staff', errors: ['tag_not_found'], example: { from: EXAMPLE_IDS.mergedTag, into: 'rf' } },
  handler: ({ input, user }) => mergeTags(staffMember(user), input),
});
