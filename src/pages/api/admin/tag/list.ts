import { defineEndpoint } from '../../../../server/http/endpoint.ts';
import { z } from '../../../../server/http/validation.ts';
import { staffTagSchema } from '../../../../lib/contract/schemas/staff.ts';
import { listStaffTags } from '../../../../server/services/staff/index.ts';

export const { GET, POST, ALL, contract } = defineEndpoint({
  auth: true,
  role: 'admin',
  methods: ['GET', 'POST'],
  result: z.array(staffTagSchema),
  docs: { summary: 'The tag tree for staff', description: 'Each top-level tag followed by its children, with both names, project counts and the slugs merged into it.', tag: 'staff' },
  handler: () => listStaffTags(),
});
