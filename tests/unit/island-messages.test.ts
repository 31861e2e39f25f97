import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import enUS from '../../locales/en-US.json' with { type: 'json' };
import zhCN from '../../locales/zh-CN.json' with { type: 'json' };
import { ERROR_KEYS } from '../../src/lib/contract/errors.ts';
import { ISLAND_NAMESPACES, islandMessageBlocks, islandMessages, type IslandName } from '../../src/lib/island-messages.ts';

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

  it('are named in its props, and written in the page as blocks of the reader’s language, with only the contract’s error keys', () => {
    expect(islandMessages('zh-CN', 'ProjectReactions')).toBe('zh-CN:reactions,errors');
    const html = islandMessageBlocks('zh-CN', 'ProjectReactions');
    const blocks = [...html.matchAll(/<script type="application\/json" data-island-messages="([^"]+)">([^<]*)<\/script>/g)].map(([, name, json]) => [name, JSON.parse(json!)] as const);
    expect(blocks.map(([name]) => name)).toEqual(['zh-CN:reactions', 'zh-CN:errors']);
    const zh = Object.fromEntries(blocks) as Record<string, Record<string, string>>;
    expect(zh['zh-CN:reactions']).toEqual(zhCN.reactions);
    expect(Object.keys(zh['zh-CN:errors']!).sort()).toEqual([...ERROR_KEYS].sort());
    expect(zh['zh-CN:errors']!.network).toBe(zhCN.errors.network);
    expect(JSON.parse(/data-island-messages="en-US:comments">([^<]*)</.exec(islandMessageBlocks('en-US', 'Comments'))![1]!)).toEqual(enUS.comments);
  });

  it('cannot end their script element, whatever a message says', () => {
    // No message holds `<` raw: each is written as its escape, which JSON reads back.
    for (const island of Object.keys(ISLAND_NAMESPACES) as IslandName[]) {
      for (const locale of ['en-US', 'zh-CN'] as const) {
        const html = islandMessageBlocks(locale, island);
        const bodies = [...html.matchAll(/<script type="application\/json" data-island-messages="[^"]+">([\s\S]*?)<\/script>/g)].map(([, json]) => json!);
        expect(bodies).toHaveLength(ISLAND_NAMESPACES[island].length);
        for (const body of bodies) {
          expect(body).not.toContain('<');
          expect(() => JSON.parse(body)).not.toThrow();
        }
      }
    }
  });

  it('are written before every hydrated island that names them', () => {
    // Each `messages={islandMessages(locale, 'X')}` of an island with a client directive has
    // `<IslandMessages … island="X" />` before it in the same file: without it, the island
    // would hydrate with keys where its words should be.
    const files = readdirSync('src', { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.astro'));
    let islands = 0;
    for (const file of files) {
      const code = readFileSync(path.join('src', file), 'utf8');
      for (const match of code.matchAll(/messages=\{islandMessages\(locale, '(\w+)'\)\}/g)) {
        const island = match[1]!;
        const tag = code.lastIndexOf(`<${island}`, match.index);
        if (!code.slice(tag, code.indexOf('/>', match.index)).includes('client:')) continue;
        islands += 1;
        expect(code.lastIndexOf(`<IslandMessages locale={locale} island="${island}" />`, tag), `${file}: ${island}`).toBeGreaterThan(-1);
      }
    }
    expect(islands).toBeGreaterThan(30);
  });
});
