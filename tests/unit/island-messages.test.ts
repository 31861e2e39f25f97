import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import enUS from '../../locales/en-US.json' with { type: 'json' };
import zhCN from '../../locales/zh-CN.json' with { type: 'json' };
import { ERROR_KEYS } from '../../src/lib/contract/errors.ts';
import { ISLAND_NAMESPACES, islandMessages, type IslandName } from '../../src/lib/island-messages.ts';

const NAMESPACES = new Set(Object.keys(enUS));

/** The island's own code: its file and what it imports from islands/ and stores/, transitively. */
function islandSources(entry: string): Map<string, string> {
  const sources = new Map<string, string>();
  const visit = (file: string) => {
    if (sources.has(file)) return;
    const code = readFileSync(file, 'utf8');
    sources.set(file, code);
    for (const [, specifier] of code.matchAll(/(?:from |import\()'(\.[^']+)'/g)) {
      const target = path.resolve(path.dirname(file), specifier!);
      if (/\/src\/(islands|stores)\//.test(target)) visit(target);
    }
  };
  visit(path.resolve('src/islands', `${entry}.tsx`));
  return sources;
}

/**
 * The namespaces the code names: message keys written in quotes (`'form.title'`,
 * `` `reactions.${kind}Done` ``), `errors` for every error worded by `errorMessage` or a notice,
 * `validation` for field errors (`fieldMessage`, `invalid`).
 */
function namespacesUsed(code: string): Set<string> {
  const used = new Set<string>();
  for (const [, namespace] of code.matchAll(/['"`]([a-z][A-Za-z]*)\.[A-Za-z_$]/g)) if (NAMESPACES.has(namespace!)) used.add(namespace!);
  if (/\b(errorMessage|noticeText)\(/.test(code)) used.add('errors');
  if (/\b(fieldMessage|invalid)\(/.test(code)) used.add('validation');
  return used;
}

describe('the messages handed to each island', () => {
  it.each(Object.keys(ISLAND_NAMESPACES) as IslandName[])('cover every namespace %s translates from, and no more', (island) => {
    const used = new Set<string>();
    for (const code of islandSources(island).values()) for (const namespace of namespacesUsed(code)) used.add(namespace);
    expect([...used].sort()).toEqual([...ISLAND_NAMESPACES[island]].sort());
  });

  it('are the island’s namespaces in the reader’s language, with only the contract’s error keys', () => {
    const zh = JSON.parse(islandMessages('zh-CN', 'ProjectReactions')) as Record<string, unknown>;
    expect(Object.keys(zh)).toEqual(['reactions', 'errors']);
    expect(zh.reactions).toEqual(zhCN.reactions);
    expect(Object.keys(zh.errors as object).sort()).toEqual([...ERROR_KEYS].sort());
    expect((zh.errors as Record<string, string>).network).toBe(zhCN.errors.network);
    expect((JSON.parse(islandMessages('en-US', 'Comments')) as Record<string, unknown>).comments).toEqual(enUS.comments);
  });
});
