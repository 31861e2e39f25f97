/**
 * A signed-in member for the benchmark, made as a browser makes one: `POST /sso/api/register`,
 * then opening the returned address, which sets the `token` cookie.
 */
export async function signUpBenchMember(base: string): Promise<{ token: string; cookie: string }> {
  const email = `bench-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const registered = await fetch(`${base}/sso/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email, password: 'bench horse battery', nickname: 'Bench Reader', redirect: `${base}/`, siteId: 'copperhub', platform: 6 }),
  });
  const body = (await registered.json()) as { retCode: number; result?: { location: string } };
  if (body.retCode !== 0 || !body.result) throw new Error(`bench sign-up failed: ${JSON.stringify(body)}`);
  const back = await fetch(new URL(body.result.location, base), { redirect: 'manual' });
  const token = back.headers
    .getSetCookie()
    .map((cookie) => /^token=([^;]+)/.exec(cookie)?.[1])
    .find(Boolean);
  if (!token) throw new Error('bench sign-up: the return address set no session cookie');
  return { token, cookie: `token=${token}` };
}
