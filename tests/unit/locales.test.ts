import { describe, expect, it } from 'vitest';
import enUS from '../../locales/en-US.json' with { type: 'json' };
import zhCN from '../../locales/zh-CN.json' with { type: 'json' };

function keys(value: unknown, prefix = ''): string[] {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    return Object.entries(value).flatMap(([key, child]) => keys(child, prefix ? `${prefix}.${key}` : key));
  }
  return [prefix];
}

function leaves(value: unknown): [string, unknown][] {
  if (value && typeof value === 'object' && !Array.isArray(value)) return Object.entries(value).flatMap(([, child]) => leaves(child));
  return [['', value]];
}

describe('locale files', () => {
  it('have exactly the same keys in en-US and zh-CN', () => {
    const en = new Set(keys(enUS));
    const zh = new Set(keys(zhCN));
    expect([...en].filter((key) => !zh.has(key))).toEqual([]);
    expect([...zh].filter((key) => !en.has(key))).toEqual([]);
  });

  it('have no empty messages', () => {
    for (const [, message] of [...leaves(enUS), ...leaves(zhCN)]) {
      expect(typeof message).toBe('string');
      expect((message as string).trim()).not.toBe('');
    }
  });

  it('use the same interpolation variables in both languages', () => {
    const vars = (text: string) => [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();
    const en = Object.fromEntries(keys(enUS).map((key) => [key, key.split('.').reduce<any>((o, k) => o[k], enUS)]));
    const zh = Object.fromEntries(keys(zhCN).map((key) => [key, key.split('.').reduce<any>((o, k) => o[k], zhCN)]));
    for (const key of Object.keys(en)) expect({ key, vars: vars(zh[key] ?? '') }).toEqual({ key, vars: vars(en[key]) });
  });
});
