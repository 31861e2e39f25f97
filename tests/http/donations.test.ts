import http from 'node:http';
import { asc } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '../../src/server/db/client.ts';
import { donations } from '../../src/server/db/schema/index.ts';
import { PHONE_UA, useApp } from '../helpers/app.ts';
import { createProject, createUser } from '../helpers/factories.ts';

// Stripe as configured on a real site, its API answered by a server of this test on 127.0.0.1
// (the stripe client's own `host`/`port`/`protocol` options, set through STRIPE_API_BASE): the
// requests the site makes to Stripe are read as Stripe would receive them. Set before the app
// reads its configuration.
const STRIPE_PORT = 4671;
const WEBHOOK_SECRET = 'whsec_test_copperhub_donations';
process.env.STRIPE_SECRET_KEY = 'sk_test_copperhub';
process.env.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET;
process.env.STRIPE_API_BASE = `http://127.0.0.1:${STRIPE_PORT}`;

const app = useApp({ pageCache: {} });

interface StripeCall {
  method: string;
  path: string;
  authorization: string | undefined;
  form: URLSearchParams;
}
const stripeCalls: StripeCall[] = [];
let stripeApi: http.Server;
let sessionCounter = 0;

beforeAll(async () => {
  stripeApi = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      stripeCalls.push({ method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization, form });
      sessionCounter += 1;
      const id = `cs_test_${sessionCounter}`;
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_${sessionCounter}` });
      res.end(JSON.stringify({ id, object: 'checkout.session', url: `https://checkout.stripe.com/c/pay/${id}`, mode: 'payment' }));
    });
  });
  await new Promise<void>((resolve) => stripeApi.listen(STRIPE_PORT, '127.0.0.1', resolve));
});
afterAll(async () => {
  stripeApi.closeAllConnections();
  await new Promise((resolve) => stripeApi.close(resolve));
});
beforeEach(() => {
  stripeCalls.length = 0;
});

let eventCounter = 0;
/** A `checkout.session.completed` event as Stripe sends it (the fields the site reads, and some it does not). */
function completedEvent(session: Partial<Record<string, unknown>> & { id: string }, type = 'checkout.session.completed') {
  eventCounter += 1;
  return {
    id: `evt_test_${eventCounter}`,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: {
      object: {
        object: 'checkout.session',
        mode: 'payment',
        payment_status: 'paid',
        status: 'complete',
        amount_total: 2500,
        currency: 'usd',
        created: Math.floor(Date.now() / 1000) - 60,
        customer_details: { name: 'Card Holder', email: 'holder@example.com' },
        metadata: { kind: 'donation', donorName: 'Ada', anonymous: '0', message: 'For the servers', userId: '', projectId: '' },
        ...session,
      },
    },
  };
}

/** Posts `payload` to the webhook, signed by Stripe's own test helper (or with `signature` as given). */
function deliver(payload: string, options: { secret?: string; timestamp?: number; signature?: string; headers?: Record<string, string> } = {}) {
  const signature =
    options.signature ??
    Stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? WEBHOOK_SECRET, ...(options.timestamp ? { timestamp: options.timestamp } : {}) });
  return app.request('/api/donate/webhook', { method: 'POST', body: payload, headers: { 'content-type': 'application/json', 'stripe-signature': signature, ...options.headers } });
}

const storedDonations = () =>
  getDb()
    .select({ provider: donations.provider, ref: donations.providerRef, donor: donations.donorName, userId: donations.userId, anonymous: donations.anonymous, amount: donations.amount, currency: donations.currency, message: donations.message, projectId: donations.projectId })
    .from(donations)
    .orderBy(asc(donations.id));

describe('the Stripe webhook', () => {
  it('stores a paid checkout once, however often Stripe delivers it, and the donation list shows it at once', async () => {
    // the guest's cached donation list, from before the payment
    const before = await app.request('/donation-list');
    expect(before.status).toBe(200);
    expect(before.body).not.toContain('For the servers');

    const payload = JSON.stringify(completedEvent({ id: 'cs_test_paid' }));
    const first = await deliver(payload);
    expect(first.status, first.body).toBe(200);
    expect(first.json()).toEqual({ retCode: 0, result: { stored: true } });
    const rows = await storedDonations();
    expect(rows).toEqual([{ provider: 'stripe', ref: 'cs_test_paid', donor: 'Ada', userId: null, anonymous: false, amount: 2500, currency: 'USD', message: 'For the servers', projectId: null }]);

    // a replay of the same event, and the same session in another event: nothing new
    expect((await deliver(payload)).json()).toEqual({ retCode: 0, result: { stored: false } });
    expect((await deliver(JSON.stringify(completedEvent({ id: 'cs_test_paid' }, 'checkout.session.async_payment_succeeded')))).json()).toEqual({ retCode: 0, result: { stored: false } });
    expect(await storedDonations()).toEqual(rows);

    // the cached list was purged: the donation is there, in the reader's money format
    const after = await app.request('/donation-list');
    expect(after.body).toContain('For the servers');
    expect(after.body).toContain('$25.00');
    const zh = await app.request('/donation-list', { headers: { 'accept-language': 'zh-CN' } });
    expect(zh.body).toContain('US$25.00');
    const home = await app.request('/');
    expect(home.body).toContain('Ada');
  });

  it('refuses forged, altered and unsigned deliveries with 400, storing nothing', async () => {
    const payload = JSON.stringify(completedEvent({ id: 'cs_test_forged' }));
    const wrongSecret = await deliver(payload, { secret: 'whsec_someone_else' });
    expect(wrongSecret.status).toBe(400);
    expect(wrongSecret.json()).toMatchObject({ retCode: 400, errorKey: 'invalid_signature' });

    // a real signature over another body: the amount was changed on the way
    const signed = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const altered = await deliver(payload.replace('"amount_total":2500', '"amount_total":9999999'), { signature: signed });
    expect(altered.status).toBe(400);

    const unsigned = await app.request('/api/donate/webhook', { method: 'POST', body: payload });
    expect(unsigned.json()).toMatchObject({ retCode: 400, errorKey: 'invalid_signature' });
    expect(await deliver(payload, { signature: 'garbage' })).toMatchObject({ status: 400 });
    expect((await storedDonations()).filter((row) => row.ref === 'cs_test_forged')).toEqual([]);
  });

  it('refuses a signature made outside the five-minute window either way (an old delivery replayed later)', async () => {
    const payload = JSON.stringify(completedEvent({ id: 'cs_test_stale' }));
    const now = Math.floor(Date.now() / 1000);
    expect((await deliver(payload, { timestamp: now - 6 * 60 })).status).toBe(400);
    expect((await deliver(payload, { timestamp: now + 6 * 60 })).status).toBe(400);
    expect((await storedDonations()).filter((row) => row.ref === 'cs_test_stale')).toEqual([]);
    // a clock a little off is tolerated
    expect((await deliver(payload, { timestamp: now - 4 * 60 })).json()).toEqual({ retCode: 0, result: { stored: true } });
  });

  it('refuses a body over 64 KB with 413, signed or not, storing nothing', async () => {
    const event = completedEvent({ id: 'cs_test_big' });
    const payload = JSON.stringify({ ...event, padding: 'x'.repeat(70 * 1024) });
    const response = await deliver(payload);
    expect(response.status).toBe(413);
    expect(response.json()).toMatchObject({ errorKey: 'too_large' });
    expect((await storedDonations()).filter((row) => row.ref === 'cs_test_big')).toEqual([]);
  });

  it('is not refused as a cross-site write (its signature decides), while every other write still is', async () => {
    const crossSite = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
    const payload = JSON.stringify(completedEvent({ id: 'cs_test_cross' }));
    expect((await deliver(payload, { headers: crossSite })).json()).toEqual({ retCode: 0, result: { stored: true } });
    expect((await deliver(payload, { headers: crossSite, secret: 'whsec_forged' })).status).toBe(400);
    const checkout = await app.request('/api/donate/checkout', { method: 'POST', body: { amount: 1000, currency: 'USD' }, headers: crossSite });
    expect(checkout.json()).toMatchObject({ errorKey: 'cross_site_request' });
    expect(stripeCalls).toEqual([]);
  });

  it('refuses a signed event not shaped as Stripe’s with 400, storing nothing', async () => {
    const { created: _created, ...withoutCreated } = completedEvent({ id: 'cs_test_no_created' }).data.object;
    const noCreated = { ...completedEvent({ id: 'cs_test_no_created' }), data: { object: withoutCreated } };
    const noObject = { ...completedEvent({ id: 'cs_test_no_object' }), data: {} };
    const textAmount = completedEvent({ id: 'cs_test_text_amount', amount_total: '2500' });
    for (const event of [noCreated, noObject, textAmount]) {
      const answer = await deliver(JSON.stringify(event));
      expect(answer.status, JSON.stringify(event.data)).toBe(400);
      expect(answer.json()).toMatchObject({ retCode: 400, errorKey: 'validation' });
    }
    expect((await storedDonations()).filter((row) => row.ref.startsWith('cs_test_no_') || row.ref === 'cs_test_text_amount')).toEqual([]);
  });

  it('acknowledges events that are not a paid donation without storing anything', async () => {
    const unpaid = JSON.stringify(completedEvent({ id: 'cs_test_unpaid', payment_status: 'unpaid' }));
    const other = JSON.stringify(completedEvent({ id: 'cs_test_other', metadata: { kind: 'shop-order' } }));
    const intent = JSON.stringify({ ...completedEvent({ id: 'pi_test_1' }, 'payment_intent.succeeded') });
    for (const payload of [unpaid, other, intent]) expect((await deliver(payload)).json()).toEqual({ retCode: 0, result: { stored: false } });
    expect((await storedDonations()).filter((row) => ['cs_test_unpaid', 'cs_test_other', 'pi_test_1'].includes(row.ref))).toEqual([]);
  });
});

describe('donate/checkout', () => {
  it('creates a Checkout Session at Stripe with the donor’s choices, and the paid session comes back as the donation', async () => {
    const { user: owner } = await createUser({ nickname: 'Board Maker' });
    const project = await createProject(owner.id, { title: 'Bench supply' });
    const donor = await createUser({ nickname: 'Grace' });
    const response = await app.request('/api/donate/checkout', {
      method: 'POST',
      token: donor.token,
      body: { amount: 1000, currency: 'EUR', anonymous: true, name: 'Grace H.', message: 'Lovely supply', project: project.publicId },
    });
    expect(response.status, response.body).toBe(200);
    expect(response.json()).toMatchObject({ retCode: 0, result: { mode: 'stripe', url: expect.stringMatching(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_\d+$/) } });

    expect(stripeCalls).toHaveLength(1);
    const call = stripeCalls[0]!;
    expect(call.method).toBe('POST');
    expect(call.path).toBe('/v1/checkout/sessions');
    expect(call.authorization).toBe('Bearer sk_test_copperhub');
    const form = Object.fromEntries(call.form);
    expect(form).toMatchObject({
      mode: 'payment',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'eur',
      'line_items[0][price_data][unit_amount]': '1000',
      'line_items[0][price_data][product_data][name]': 'Donation towards Bench supply',
      'metadata[kind]': 'donation',
      'metadata[anonymous]': '1',
      'metadata[donorName]': 'Grace H.',
      'metadata[message]': 'Lovely supply',
      'metadata[userId]': String(donor.user.id),
      'metadata[projectId]': String(project.id),
    });
    expect(form.success_url).toBe(`${app.origin()}/support/thanks?session_id={CHECKOUT_SESSION_ID}`);

    // Stripe calls back with the session it made, metadata included
    const metadata = Object.fromEntries([...call.form].filter(([key]) => key.startsWith('metadata[')).map(([key, value]) => [key.slice(9, -1), value]));
    const sessionId = /cs_test_\d+$/.exec(response.json<{ result: { url: string } }>().result.url)![0];
    await deliver(JSON.stringify(completedEvent({ id: sessionId, amount_total: 1000, currency: 'eur', metadata })));
    expect((await storedDonations()).find((row) => row.ref === sessionId)).toEqual({
      provider: 'stripe', ref: sessionId, donor: 'Grace H.', userId: donor.user.id, anonymous: true, amount: 1000, currency: 'EUR', message: 'Lovely supply', projectId: project.id,
    });
    // anonymous on every page: the list shows no name, but the message and the project
    const list = await app.request('/api/donate/list', { method: 'POST', body: { page: 1, pageSize: 50 } });
    const shown = list.json<{ result: { list: Array<{ donor: string; message: string; project: { id: string } | null }> } }>().result.list.find((item) => item.message === 'Lovely supply');
    expect(shown).toEqual(expect.objectContaining({ donor: '', project: { id: project.publicId, title: 'Bench supply' } }));
    expect((await app.request('/donation-list')).body).not.toContain('Grace H.');
  });

  it('refuses amounts out of bounds, unknown currencies and projects before anything reaches Stripe', async () => {
    const post = (body: unknown) => app.request('/api/donate/checkout', { method: 'POST', body });
    const tooSmall = await post({ amount: 50, currency: 'USD' });
    expect(tooSmall.status).toBe(400);
    expect(tooSmall.json()).toMatchObject({ errorKey: 'validation', fields: { amount: 'amount_too_small' } });
    expect((await post({ amount: 100_000_000, currency: 'CNY' })).json()).toMatchObject({ fields: { amount: 'amount_too_big' } });
    expect((await post({ amount: 12.5, currency: 'USD' })).json()).toMatchObject({ fields: { amount: 'amount_invalid' } });
    expect((await post({ amount: 'ten', currency: 'USD' })).json()).toMatchObject({ fields: { amount: 'amount_invalid' } });
    expect((await post({ currency: 'USD' })).json()).toMatchObject({ fields: { amount: 'amount_invalid' } });
    expect((await post({ amount: 1000, currency: 'JPY' })).json()).toMatchObject({ fields: { currency: 'invalid_value' } });
    expect((await post({ amount: 1000, currency: 'USD', message: 'x'.repeat(501) })).json()).toMatchObject({ fields: { message: 'too_big' } });
    const missing = await post({ amount: 1000, currency: 'USD', project: 'no-such-project' });
    expect(missing.status).toBe(404);
    expect(missing.json()).toMatchObject({ errorKey: 'project_not_found' });
    expect(stripeCalls).toEqual([]);
  });
});

describe('the Support page', () => {
  it('offers amounts in the reader’s currency, desktop and phone, and its form goes on to Stripe without JavaScript', async () => {
    const en = await app.request('/support');
    expect(en.status).toBe(200);
    expect(en.body).toContain('$5.00');
    expect(en.body).toContain('name="anonymous"');
    const zh = await app.request('/support', { headers: { 'accept-language': 'zh-CN' } });
    expect(zh.body).toContain('¥200.00');
    const phone = await app.request('/m/support', { headers: { 'user-agent': PHONE_UA } });
    expect(phone.status).toBe(200);
    expect(phone.body).toContain('action="/m/support"');

    const posted = await app.request('/support', {
      method: 'POST',
      body: new URLSearchParams({ currency: 'USD', amount: 'other', custom: '12.50', name: 'Linus', message: '', project: '' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(posted.status).toBe(303);
    expect(posted.headers.location).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_\d+$/);
    expect(Object.fromEntries(stripeCalls[0]!.form)).toMatchObject({ 'line_items[0][price_data][unit_amount]': '1250', 'line_items[0][price_data][currency]': 'usd', 'metadata[donorName]': 'Linus', 'metadata[anonymous]': '0' });

    // a mistake shows the form again with it, and nothing reaches Stripe
    stripeCalls.length = 0;
    const wrong = await app.request('/support', {
      method: 'POST',
      body: new URLSearchParams({ currency: 'USD', amount: 'other', custom: 'lots' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toContain('Enter an amount such as 10 or 12.50.');
    expect(stripeCalls).toEqual([]);
  });

  it('is where the donate buttons of the home page and of each project page lead', async () => {
    const { user } = await createUser();
    const project = await createProject(user.id, { title: 'Logic probe' });
    expect((await app.request('/')).body).toContain('href="/support"');
    const page = await app.request(`/d-${project.publicId}`);
    expect(page.body).toContain(`href="/support?project=${project.publicId}"`);
    const towards = await app.request(`/support?project=${project.publicId}`);
    expect(towards.body).toContain('Logic probe');
    expect(towards.body).toContain(`name="project" value="${project.publicId}"`);
  });
});
