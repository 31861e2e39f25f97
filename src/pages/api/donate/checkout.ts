import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { donationFormSchema, startDonation } from '../../../server/services/site/index.ts';
import { siteOrigin } from '../../../server/lib/sso-links.ts';
import { donationCheckoutSchema } from '../../../lib/contract/schemas/site.ts';

/** Where a donor goes to pay: a Stripe Checkout Session made for the form, or the external donation page. */
export const { POST, ALL, contract } = defineEndpoint({
  input: donationFormSchema,
  result: donationCheckoutSchema,
  docs: {
    summary: 'Start a donation',
    description:
      'With Stripe configured, creates a Checkout Session for the amount (minor units of `currency`, within its bounds) and answers its payment page; the donation is recorded when Stripe’s webhook says it is paid. Without Stripe, answers the site’s external donation page (`DONATION_URL`). `donations_closed` when the site takes neither.',
    tag: 'site',
    session: 'optional',
    errors: ['donations_closed', 'project_not_found'],
    example: { amount: 1000, currency: 'USD', anonymous: false, name: 'Ada', message: 'Thanks for the boards!' },
  },
  handler: ({ input, user, context }) => startDonation(input, user, siteOrigin(context.url)),
});
