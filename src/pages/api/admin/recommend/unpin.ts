import { defineEndpoint } from '../../../../server/http/endpoint.ts';
import { staffMember, unpinProject } from '../../../../server/services/staff/index.ts';
import { z } from '../../../../server/http/validation.ts';
import { changeOf, pinnedProjectSchema, recommendProjectInputSchema } from '../../../../lib/contract/schemas/staff.ts';
import { EXAMPLE_IDS } from '../../../../lib/contract/schemas/examples.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  role: 'admin',
  input: recommendProjectInputSchema,
  result: changeOf(z.array(pinnedProjectSchema)),
  docs: { summary: 'Unpin a project', description: 'Answers every pinned project in its new order.', tag: 'staff', example: { project: EXAMPLE_IDS.project } },
  handler: ({ input, user }) => unpinProject(staffMember(user), input),
});
