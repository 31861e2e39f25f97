import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CJK_CLASS_SQL, CJK_RANGES } from '../../src/lib/cjk.ts';
import { sharedBuffers } from '../../src/server/db/embedded.ts';
import { parseQuery } from '../../src/server/services/projects/index.ts';

describe('the CJK class of search', () => {
  it('is the one the database columns use (migration 0008)', () => {
    const migration = readFileSync(new URL('../../drizzle/0008_search_at_scale.sql', import.meta.url), 'utf8');
    expect(migration).toContain(`'[${CJK_CLASS_SQL}]+'`); // cjk_grams()
    expect(migration).toContain(`'[^${CJK_CLASS_SQL}]+'`); // search_cjk
  });

  it('holds Han, Hiragana, Katakana and Hangul characters only', () => {
    const script = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
    for (const [from, to] of CJK_RANGES) {
      for (let code = from; code <= to; code += 1) expect(script.test(String.fromCodePoint(code))).toBe(true);
    }
  });

  it('splits queries into runs as before', () => {
    expect(parseQuery('基于 ESP32 的开源硬件，ハロー・ワールド 한국어')).toEqual({ words: ['esp32', 'ー'], cjk: ['基于', '的开源硬件', 'ハロ', 'ワ', 'ルド', '한국어'], syntax: null });
  });
});

describe('shared_buffers of the embedded PostgreSQL', () => {
  it('is a quarter of the memory between 128 MB and 1 GB, unless set', () => {
    expect(sharedBuffers({}, 24 * 2 ** 30)).toBe('1024MB');
    expect(sharedBuffers({}, 2 * 2 ** 30)).toBe('512MB');
    expect(sharedBuffers({}, 256 * 2 ** 20)).toBe('128MB');
    expect(sharedBuffers({ PG_SHARED_BUFFERS: '256MB' }, 24 * 2 ** 30)).toBe('256MB');
    expect(() => sharedBuffers({ PG_SHARED_BUFFERS: 'lots' })).toThrow(/PG_SHARED_BUFFERS/);
  });
});
