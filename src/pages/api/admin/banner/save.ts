import { defineEndpoint } from '../../../../server/http/endpoint.ts';
import { staffMember, saveBanner } from '../../../../server/services/staff/index.ts';
import { bannerSaveInputSchema, changeOf, staffBannerSchema } from '../../../../lib/contract/schemas/staff.ts';
import { EXAMPLE_IDS } from '../../../../lib/contract/schemas/examples.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  role: 'admin',
  input: bannerSaveInputSchema,
  result: changeOf(staffBannerSchema),
  docs: {
    summary: 'Add or edit a home-page banner',
    description: 'Without `id` a banner is added. The home page shows it between `startsAt` and `endsAt` (either may be null), within seconds of each boundary.',
    tag: 'staff',
    errors: ['banner_not_found'],
    example: { image: EXAMPLE_IDS.upload, link: '/collection/keyboards', titleEn: 'Keyboards week', titleZh: '键盘周', startsAt: '2026-12-01T09:00:00Z', endsAt: null },
  },
  handler: ({ input, user }) => saveBanner(staffMember(user), input),
});
