import { readLimitedBody } from '../../../server/http/body.ts';
import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { receiveStripeEvent, WEBHOOK_MAX_BYTES } from '../../../server/services/site/index.ts';
import { donationWebhookResultSchema, stripeEventSchema } from '../../../lib/contract/schemas/site.ts';

/**
 * Stripe's webhook. No session and no origin check: the signature over the raw body is the
 * authentication (the exception is named in src/server/http/csrf.ts).
 */
export const { POST, ALL, contract } = defineEndpoint({
  rawBody: true,
  result: donationWebhookResultSchema,
  docs: {
    summary: 'Stripe webhook',
    description:
      'Called by Stripe, signed with `STRIPE_WEBHOOK_SECRET` (`Stripe-Signature` header, checked over the raw body, timestamp within 5 minutes). A paid `checkout.session.completed` stores its donation once, whatever the number of deliveries; other events are acknowledged. A signed event not shaped as Stripe’s (no `data.object`, a session without `created`) is refused with 400 `validation` and stores nothing. Bodies over 64 KB are refused.',
    tag: 'site',
    errors: ['invalid_signature', 'validation', 'too_large', 'donations_closed'],
    body: { contentType: 'application/json', schema: stripeEventSchema },
  },
  handler: async ({ context }) => {
    const body = await readLimitedBody(context.request, WEBHOOK_MAX_BYTES);
    return receiveStripeEvent(body, context.request.headers.get('stripe-signature'));
  },
});
