import { defineEndpoint } from '../../../../server/http/endpoint.ts';
import { staffMember, renameTag } from '../../../../server/services/staff/index.ts';
import { changeOf, staffTagSchema, tagRenameInputSchema } from '../../../../lib/contract/schemas/staff.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  role: 'admin',
  input: tagRenameInputSchema,
  result: changeOf(staffTagSchema),
  docs: { summary: 'Rename a tag in both languages', tag: 'staff', errors: ['tag_not_found'], example: { slug: 'rf', nameEn: 'Radio', nameZh: '无线电' } },
  handler: ({ input, user }) => renameTag(staffMember(user), input),
});
