import { defineEndpoint } from '../../../../server/http/endpoint.ts';
import { z } from '../../../../server/http/validation.ts';
import { staffBannerSchema } from '../../../../lib/contract/schemas/staff.ts';
import { listStaffBanners } from '../../../../server/services/staff/index.ts';

export const { GET, POST, ALL, contract } = defineEndpoint({
  auth: true,
  role: 'admin',
  methods: ['GET', 'POST'],
  result: z.array(staffBannerSchema),
  docs: { summary: 'Every banner, for staff', description: 'Live ones first, then scheduled, then ended; both titles.', tag: 'staff' },
  handler: () => listStaffBanners(),
});
