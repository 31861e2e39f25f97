import { defineEndpoint } from '../../../../server/http/endpoint.ts';
import { z } from '../../../../server/http/validation.ts';
import { staffCollectionSchema } from '../../../../lib/contract/schemas/staff.ts';
import { listStaffCollections } from '../../../../server/services/staff/index.ts';

export const { GET, POST, ALL, contract } = defineEndpoint({
  auth: true,
  role: 'admin',
  methods: ['GET', 'POST'],
  result: z.array(staffCollectionSchema),
  docs: { summary: 'Every collection with its projects, for staff', tag: 'staff' },
  handler: () => listStaffCollections(),
});
