import { describe, expect, it } from 'vitest';
import { useApp } from '../helpers/app.ts';
import { createProject, createUser } from '../helpers/factories.ts';

// A site with neither payment keys nor DONATION_URL: it says donations are not open and shows no
// button that would lead nowhere. Set before the app reads its configuration.
delete process.env.DONATION_URL;
delete process.env.STRIPE_SECRET_KEY;
delete process.env.STRIPE_WEBHOOK_SECRET;

const app = useApp();

describe('a site that takes no donations', () => {
  it('says so on the Support page and shows no donate button anywhere', async () => {
    const { user } = await createUser();
    const project = await createProject(user.id);
    const support = await app.request('/support');
    expect(support.status).toBe(200);
    expect(support.body).toContain('data-testid="donations-closed"');
    expect(support.body).toContain('This site does not take donations at the moment.');
    expect(support.body).not.toContain('data-testid="donation-form"');
    expect(support.body).not.toContain('data-testid="donate-external"');
    expect((await app.request('/')).body).not.toContain('data-testid="donate-button"');
    expect((await app.request(`/d-${project.publicId}`)).body).not.toContain('data-testid="donate-project"');
  });

  it('answers donate/checkout with donations_closed', async () => {
    const response = await app.request('/api/donate/checkout', { method: 'POST', body: { amount: 1000, currency: 'USD' } });
    expect(response.status).toBe(404);
    expect(response.json()).toMatchObject({ errorKey: 'donations_closed', message: 'This site does not take donations online.' });
  });
});
