import { defineEndpoint } from '../../../../server/http/endpoint.ts';
import { staffMember, createTag } from '../../../../server/services/staff/index.ts';
import { changeOf, staffTagSchema, tagCreateInputSchema } from '../../../../lib/contract/schemas/staff.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  role: 'admin',
  input: tagCreateInputSchema,
  result: changeOf(staffTagSchema),
  docs: { summary: 'Add a tag', tag: 'staff', errors: ['tag_not_found'], example: { slug: 'rf', nameEn: 'RF', nameZh: '射频', parent: null } },
  handler: ({ input, user }) => createTag(staffMember(user), input),
});
