import { describe, expect, it } from 'vitest';
import { PHONE_UA, useApp } from '../helpers/app.ts';
import { createProject, createUser } from '../helpers/factories.ts';

// A site without payment keys that takes donations on an external page (DONATION_URL): every
// donate button leads there. Set before the app reads its configuration.
const DONATION_URL = 'https://opencollective.com/copperhub-test/donate';
process.env.DONATION_URL = DONATION_URL;
delete process.env.STRIPE_SECRET_KEY;
delete process.env.STRIPE_WEBHOOK_SECRET;

const app = useApp();

describe('donations on an external page (DONATION_URL, no Stripe keys)', () => {
  it('sends every donate button to the external page: home, project page, donation list, Support page', async () => {
    const { user } = await createUser();
    const project = await createProject(user.id);
    expect((await app.request('/')).body).toContain(`href="${DONATION_URL}"`);
    expect((await app.request(`/d-${project.publicId}`)).body).toContain(`href="${DONATION_URL}"`);
    expect((await app.request('/donation-list')).body).toContain(`href="${DONATION_URL}"`);
    for (const [path, agent] of [['/support', undefined], ['/m/support', PHONE_UA]] as const) {
      const support = await app.request(path, agent ? { headers: { 'user-agent': agent } } : {});
      expect(support.status).toBe(200);
      expect(support.body).toContain(`href="${DONATION_URL}"`);
      expect(support.body).toContain('opencollective.com');
      // no payment form without Stripe
      expect(support.body).not.toContain('data-testid="donation-form"');
    }
  });

  it('answers donate/checkout with the external page, after the same checks', async () => {
    const ok = await app.request('/api/donate/checkout', { method: 'POST', body: { amount: 1000, currency: 'USD' } });
    expect(ok.json()).toEqual({ retCode: 0, result: { url: DONATION_URL, mode: 'external' } });
    expect((await app.request('/api/donate/checkout', { method: 'POST', body: { amount: 1, currency: 'USD' } })).status).toBe(400);
  });

  it('has no webhook to call: a signed-looking delivery is refused and stores nothing', async () => {
    const response = await app.request('/api/donate/webhook', { method: 'POST', body: '{"id":"evt_1"}', headers: { 'stripe-signature': 't=1,v1=abc' } });
    expect(response.status).toBe(404);
    expect(response.json()).toMatchObject({ errorKey: 'donations_closed' });
    expect((await app.request('/api/donate/list', { method: 'POST', body: {} })).json()).toMatchObject({ result: { total: 0 } });
  });
});
