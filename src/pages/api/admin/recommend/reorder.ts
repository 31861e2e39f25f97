import { defineEndpoint } from '../../../../server/http/endpoint.ts';
import { staffMember, reorderPinned } from '../../../../server/services/staff/index.ts';
import { z } from '../../../../server/http/validation.ts';
import { changeOf, pinnedProjectSchema, recommendReorderInputSchema } from '../../../../lib/contract/schemas/staff.ts';
import { EXAMPLE_IDS } from '../../../../lib/contract/schemas/examples.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  role: 'admin',
  input: recommendReorderInputSchema,
  result: changeOf(z.array(pinnedProjectSchema)),
  docs: { summary: 'Put the pinned projects in a new order', description: 'Answers every pinned project in its new order.', tag: 'staff', example: { projects: [EXAMPLE_IDS.project] } },
  handler: ({ input, user }) => reorderPinned(staffMember(user), input),
});
