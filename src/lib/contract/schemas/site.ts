import { count, isoDateTime, pageOf, projectRefSchema, z } from './common.ts';

export const bannerSchema = z
  .object({ image: z.string(), imageWidth: z.number().int().positive().nullable().meta({ description: 'The image’s width in pixels when it is an uploaded image (its variants exist), else null.' }), link: z.string(), title: z.string() })
  .meta({ id: 'Banner' });

export const donationSchema = z
  .object({
    donor: z.string(),
    amount: z.number().int().meta({ description: 'Minor units of `currency`.' }),
    currency: z.string(),
    message: z.string(),
    project: projectRefSchema.nullable(),
    createdAt: isoDateTime,
  })
  .meta({ id: 'Donation' });

export const donationPageSchema = pageOf(donationSchema)
  .extend({ totals: z.array(z.object({ currency: z.string(), amount: count })) })
  .meta({ id: 'DonationPage' });
