import { describe, expect, it } from 'vitest';
import { ERROR_KEYS, ERROR_STATUS, errorMessage } from '../../src/lib/contract/errors.ts';
import { getT, LOCALES } from '../../src/lib/i18n.ts';
import { AppError } from '../../src/server/http/errors.ts';

describe('the error contract', () => {
  it.each(LOCALES)('has a translation of every error key in %s', (locale) => {
    const t = getT(locale);
    const missing = ERROR_KEYS.filter((key) => t(`errors.${key}`) === `errors.${key}`);
    expect(missing).toEqual([]);
  });

  it('gives every key one status, so an AppError answers it whatever threw it', () => {
    expect(new AppError('project_not_found').status).toBe(404);
    expect(new AppError('rate_limited').status).toBe(429);
    expect(new AppError('validation', { title: 'required' })).toMatchObject({ status: 400, fields: { title: 'required' } });
    for (const [key, status] of Object.entries(ERROR_STATUS)) expect(status, key).toBeGreaterThanOrEqual(400);
  });

  it('shows islands a known key in the reader’s language and anything else as an internal error', () => {
    const zh = getT('zh-CN');
    expect(errorMessage({ errorKey: 'rate_limited' }, zh)).toBe(zh('errors.rate_limited'));
    expect(errorMessage({ errorKey: 'network' }, zh)).toBe(zh('errors.network'));
    expect(errorMessage({ errorKey: 'from_a_newer_server' }, zh)).toBe(zh('errors.internal'));
    expect(errorMessage(new Error('boom'), zh)).toBe(zh('errors.internal'));
  });
});
