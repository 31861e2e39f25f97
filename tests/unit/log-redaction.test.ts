import { describe, expect, it } from 'vitest';
import { createLogger, redactSecrets } from '../../src/server/log.ts';

/** A logger like the server's, its lines kept as parsed JSON. */
function capture() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) }, 'info');
  return { logger, lines };
}

describe("the server's log", () => {
  it('never writes a secret, up to three objects down, and keeps everything else', () => {
    const { logger, lines } = capture();
    logger.info(
      {
        token: 'session-token',
        password: 'hunter2',
        req: { method: 'POST', headers: { cookie: 'token=abc', authorization: 'Bearer abc', 'user-agent': 'curl' } },
        upload: { meta: { deep: { uploadToken: 'u-token', size: 3 } } },
        list: [{ sessionToken: 's' }, 'plain'],
      },
      'request',
    );
    const [line] = lines;
    const text = JSON.stringify(line);
    for (const secret of ['session-token', 'hunter2', 'token=abc', 'Bearer abc', 'u-token', '"s"']) expect(text).not.toContain(secret);
    expect(line).toMatchObject({
      msg: 'request',
      token: '[redacted]',
      password: '[redacted]',
      req: { method: 'POST', headers: { cookie: '[redacted]', authorization: '[redacted]', 'user-agent': 'curl' } },
      upload: { meta: { deep: { uploadToken: '[redacted]', size: 3 } } },
      list: [{ sessionToken: '[redacted]' }, 'plain'],
    });
  });

  it('keeps an error an error (type, message, stack) while taking the secrets out of it', () => {
    const { logger, lines } = capture();
    const error = Object.assign(new TypeError('upstream refused'), { headers: { 'set-cookie': 'token=leak' } });
    logger.error({ err: error }, 'failed');
    const err = lines[0]!.err as Record<string, unknown>;
    expect(err.type).toBe('TypeError');
    expect(err.message).toBe('upstream refused');
    expect(String(err.stack)).toContain('upstream refused');
    expect(err.headers).toEqual({ 'set-cookie': '[redacted]' });
    // The error itself is left as it was, for whoever still holds it.
    expect(error.headers['set-cookie']).toBe('token=leak');
  });

  it('leaves a line without secrets as it is (nothing copied)', () => {
    const line = { requestId: 'r1', route: '/d-[id]', status: 200, nested: { a: { b: { c: 1 } } } };
    expect(redactSecrets(line)).toBe(line);
  });
});
