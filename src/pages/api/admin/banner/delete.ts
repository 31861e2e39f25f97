import { defineEndpoint } from '../../../../server/http/endpoint.ts';
import { staffMember, deleteBanner } from '../../../../server/services/staff/index.ts';
import { bannerIdInputSchema, okResultSchema } from '../../../../lib/contract/schemas/staff.ts';
import { EXAMPLE_IDS } from '../../../../lib/contract/schemas/examples.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  role: 'admin',
  input: bannerIdInputSchema,
  result: okResultSchema,
  docs: { summary: 'Remove a banner', tag: 'staff', errors: ['banner_not_found'], example: { id: EXAMPLE_IDS.banner } },
  handler: ({ input, user }) => deleteBanner(staffMember(user), input.id),
});
