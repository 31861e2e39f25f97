import { defineEndpoint } from '../../../../server/http/endpoint.ts';
import { staffMember, pinProject } from '../../../../server/services/staff/index.ts';
import { z } from '../../../../server/http/validation.ts';
import { changeOf, pinnedProjectSchema, recommendPinInputSchema } from '../../../../lib/contract/schemas/staff.ts';
import { EXAMPLE_IDS } from '../../../../lib/contract/schemas/examples.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  role: 'admin',
  input: recommendPinInputSchema,
  result: changeOf(z.array(pinnedProjectSchema)),
  docs: { summary: 'Pin a project on /recommend and the home page', description: 'Answers every pinned project in its new order.', tag: 'staff', errors: ['project_not_found'], example: { project: EXAMPLE_IDS.project, rank: 1 } },
  handler: ({ input, user }) => pinProject(staffMember(user), input),
});
