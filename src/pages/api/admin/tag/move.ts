import { defineEndpoint } from '../../../../server/http/endpoint.ts';
import { staffMember, moveTag } from '../../../../server/services/staff/index.ts';
import { changeOf, staffTagSchema, tagMoveInputSchema } from '../../../../lib/contract/schemas/staff.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  role: 'admin',
  input: tagMoveInputSchema,
  result: changeOf(staffTagSchema),
  docs: { summary: 'Move a tag under a top-level tag, or to the top', tag: 'staff', errors: ['tag_not_found'], example: { slug: 'rf', parent: null } },
  handler: ({ input, user }) => moveTag(staffMember(user), input),
});
