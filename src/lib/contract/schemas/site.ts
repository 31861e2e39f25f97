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

export const donationCheckoutSchema = z
  .object({
    url: z.string().meta({ description: 'Where to send the donor: the Stripe Checkout page, or the site’s external donation page.' }),
    mode: z.enum(['stripe', 'external']),
  })
  .meta({ id: 'DonationCheckout' });

export const donationWebhookResultSchema = z
  .object({ stored: z.boolean().meta({ description: 'Whether this event stored a new donation (false for a replay or an event that is not a paid donation).' }) })
  .meta({ id: 'DonationWebhookResult' });

/** What Stripe posts to the webhook: an event (only the fields this site reads are listed). */
export const stripeEventSchema = z
  .object({ id: z.string(), type: z.string(), data: z.object({ object: z.record(z.string(), z.unknown()) }) })
  .loose()
  .meta({ id: 'StripeEvent' });
