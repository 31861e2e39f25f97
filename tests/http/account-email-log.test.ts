import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startJobWorkers, stopJobWorkers } from '../../src/server/jobs/workers.ts';
import { useApp, type AppResponse } from '../helpers/app.ts';
import { createProject, createUser } from '../helpers/factories.ts';

/**
 * A site without `SMTP_URL` (development, demos): sign-up asks for no confirmation, and the
 * emails the site would send are written to its log as one line with their links.
 */
const app = useApp();
beforeAll(async () => {
  delete process.env.SMTP_URL;
  await startJobWorkers();
});
afterAll(() => stopJobWorkers());
afterEach(() => vi.restoreAllMocks());

const post = (path: string, body: unknown, token?: string): Promise<AppResponse> => app.request(path, { method: 'POST', body, token, headers: { origin: app.origin() } });

async function sessionFrom(location: string): Promise<string> {
  const url = new URL(location, app.origin());
  const opened = await app.request(url.pathname + url.search);
  const cookie = (opened.headers['set-cookie'] ?? []).find((value) => value.startsWith('token='));
  return /^token=([^;]+)/.exec(cookie!)![1]!;
}

describe('account email on a site without SMTP_URL', () => {
  it('signs up without a confirmation step: the new member comments at once', async () => {
    const owner = await createUser();
    const project = await createProject(owner.user.id);
    const registered = await post('/sso/api/register', { email: 'straight-in@example.com', password: 'solder-fumes-42', nickname: 'Straight In' });
    const token = await sessionFrom(registered.json<{ result: { location: string } }>().result.location);
    expect((await post('/api/comment/submit', { id: project.publicId, content: 'Hello from a demo site.' }, token)).json()).toMatchObject({ retCode: 0 });
    expect((await app.request(`/d-${project.publicId}`, { token })).body).not.toContain('verify-email-banner');
    expect((await app.request('/api/user/emailSettings', { token })).json()).toMatchObject({ result: { mailEnabled: false, emailVerified: true } });
  });

  it('writes the reset mail to the log as one line whose link works', async () => {
    await post('/sso/api/register', { email: 'log-reader@example.com', password: 'solder-fumes-42', nickname: 'Log Reader' });
    const lines: string[] = [];
    const original = console.log;
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      const line = args.map(String).join(' ');
      if (line.startsWith('[mail]')) lines.push(line);
      else original(...args);
    });
    expect((await post('/sso/api/forgot', { email: 'log-reader@example.com' })).json()).toEqual({ retCode: 0, result: { sent: true } });
    const deadline = Date.now() + 15_000;
    while (lines.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('to=log-reader@example.com');
    expect(lines[0]).toContain('subject="Set a new Copperhub password"');
    const link = new URL(/links=(\S+)/.exec(lines[0]!)![1]!);
    expect(link.pathname).toBe('/sso/reset');

    const reset = await post('/sso/api/reset', { token: link.searchParams.get('token'), password: 'logged and reset' });
    expect(reset.json()).toMatchObject({ retCode: 0 });
    expect((await post('/sso/api/login', { email: 'log-reader@example.com', password: 'logged and reset' })).json()).toMatchObject({ retCode: 0 });
  });
});
