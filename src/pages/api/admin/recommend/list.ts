import { defineEndpoint } from '../../../../server/http/endpoint.ts';
import { z } from '../../../../server/http/validation.ts';
import { pinnedProjectSchema } from '../../../../lib/contract/schemas/staff.ts';
import { listPinnedProjects } from '../../../../server/services/staff/index.ts';

export const { GET, POST, ALL, contract } = defineEndpoint({
  auth: true,
  role: 'admin',
  methods: ['GET', 'POST'],
  result: z.array(pinnedProjectSchema),
  docs: { summary: 'The pinned recommendations in order', tag: 'staff' },
  handler: () => listPinnedProjects(),
});
