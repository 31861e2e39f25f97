import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getT } from '../../src/lib/i18n.ts';
import { noticeText } from '../../src/lib/notice.ts';
import { tagHeadingName, tagNameProblem, tagSlugOf } from '../../src/lib/tag-names.ts';
import { createTagPicker, existingFor, viewOf, type TagEntry, type TagSuggestion } from '../../src/stores/tag-picker.ts';

// What `tag/suggest` answers is tested against PostgreSQL (tests/integration/open-tags.test.ts)
// and through the form in Chromium (tests/e2e/open-tags.spec.ts); here, what the field does with it.

const mcu: TagSuggestion = { slug: 'microcontrollers', nameEn: 'Microcontrollers', nameZh: '单片机', projectCount: 12 };
const arm: TagSuggestion = { slug: 'arm-mcu', nameEn: 'ARM microcontrollers', nameZh: 'ARM 单片机', projectCount: 3 };
const esp: TagSuggestion = { slug: 'esp32', nameEn: 'ESP32', nameZh: 'ESP32', projectCount: 40 };
const en = getT('en-US');
const zh = getT('zh-CN');

function makePicker(initial: TagEntry[] = [], suggest: (q: string) => Promise<TagSuggestion[]> = () => Promise.reject(new Error('offline'))) {
  let value = initial;
  const picker = createTagPicker({ value: () => value, onChange: (next) => (value = next), names: { esp32: 'ESP32' }, suggest });
  return { picker, value: () => value };
}

describe('tag names', () => {
  it('makes one slug of the ways a name is typed, keeps CJK letters, and refuses what cannot be a tag', () => {
    expect(['ESP32 S3', 'esp32-s3', ' ESP32_S3 ', 'ＥＳＰ３２ Ｓ３'].map(tagSlugOf)).toEqual(['esp32-s3', 'esp32-s3', 'esp32-s3', 'esp32-s3']);
    expect(tagSlugOf('单片机')).toBe('单片机');
    expect(tagSlugOf('C++')).toBe('c-plus-plus');
    expect(tagSlugOf('Café racer')).toBe('cafe-racer');
    expect(tagNameProblem('Reflow oven')).toBeNull();
    expect(tagNameProblem('<b>')).toBe('tag_name_invalid');
    expect(tagNameProblem('x'.repeat(41))).toBe('tag_name_too_long');
  });

  it('heads a tag page with both names in the reader\'s language first, one name when they are the same', () => {
    expect(tagHeadingName(mcu, 'en-US')).toBe('Microcontrollers · 单片机');
    expect(tagHeadingName(mcu, 'zh-CN')).toBe('单片机 · Microcontrollers');
    expect(tagHeadingName({ nameEn: '回流焊', nameZh: '回流焊' }, 'en-US')).toBe('回流焊');
  });
});

describe('the tag field', () => {
  beforeEach(() => {
    // Typing waits before asking the server; the tests hand the store its answer themselves.
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows suggestions in the language typed, with the other name beside it', () => {
    expect(viewOf(mcu, '单片')).toMatchObject({ primary: '单片机', secondary: 'Microcontrollers' });
    expect(viewOf(mcu, 'micro')).toMatchObject({ primary: 'Microcontrollers', secondary: '单片机' });
    expect(viewOf(esp, 'esp')).toMatchObject({ primary: 'ESP32', secondary: null });

    const { picker } = makePicker(['esp32']);
    picker.type('单片');
    picker.showSuggestions('单片', [mcu, arm, esp]);
    const state = picker.$picker.get();
    expect(state.open).toBe(true);
    // Chosen tags are not offered again.
    expect(state.suggestions.map((tag) => [tag.primary, tag.secondary])).toEqual([
      ['单片机', 'Microcontrollers'],
      ['ARM 单片机', 'ARM microcontrollers'],
    ]);
  });

  it('drops an answer to a query the author has typed past', () => {
    const { picker } = makePicker();
    picker.type('mi');
    picker.type('mic');
    picker.showSuggestions('mi', [mcu]);
    expect(picker.$picker.get().suggestions).toEqual([]);
  });

  it('chooses the highlighted suggestion with the arrow keys and Enter', async () => {
    const { picker, value } = makePicker();
    picker.type('单片');
    picker.showSuggestions('单片', [mcu, arm]);
    picker.move(1);
    picker.move(1);
    await picker.enter();
    expect(value()).toEqual(['arm-mcu']);
    expect(picker.labelOf('arm-mcu')).toBe('ARM 单片机');
    expect(picker.$picker.get()).toMatchObject({ query: '', open: false, notice: null });
  });

  it('adds a name that is no tag as a new tag, saying it is created when publishing; one that is a tag uses it', async () => {
    const { picker, value } = makePicker();
    picker.type('Reflow oven');
    picker.showSuggestions('Reflow oven', []);
    await picker.enter();
    expect(value()).toEqual([{ name: 'Reflow oven' }]);
    expect(noticeText(picker.$picker.get().notice!, en)).toBe('New tag: Reflow oven. It is created when you publish.');

    picker.type('单片机');
    picker.showSuggestions('单片机', [mcu, arm]);
    await picker.enter();
    expect(value()).toEqual([{ name: 'Reflow oven' }, 'microcontrollers']);
    expect(noticeText(picker.$picker.get().notice!, zh)).toBe('“单片机”已是现有标签，项目将使用它。');

    // The same name again (any spelling of its slug) is not added twice.
    picker.type('reflow-OVEN');
    picker.showSuggestions('reflow-OVEN', []);
    await picker.enter();
    expect(value()).toHaveLength(2);
    expect(noticeText(picker.$picker.get().notice!, en)).toBe('reflow-OVEN is chosen already.');

    picker.remove({ name: 'Reflow oven' });
    expect(value()).toEqual(['microcontrollers']);
  });

  it('refuses a name that cannot be a tag, in the form\'s words, and adds nothing', async () => {
    const { picker, value } = makePicker();
    picker.type('<script>');
    await picker.enter();
    expect(value()).toEqual([]);
    expect(noticeText(picker.$picker.get().notice!, en)).toMatch(/starts with a letter or digit/);
  });

  it('asks for suggestions first when Enter comes before they arrived, and still adds the name when offline', async () => {
    const asked: string[] = [];
    const { picker, value } = makePicker([], async (q) => {
      asked.push(q);
      return [esp];
    });
    picker.type('esp32');
    await picker.enter();
    expect(asked).toEqual(['esp32']);
    expect(value()).toEqual(['esp32']);

    const offline = makePicker();
    offline.picker.type('Hot plate');
    await offline.picker.enter();
    expect(offline.value()).toEqual([{ name: 'Hot plate' }]);
  });

  it('takes at most five tags', async () => {
    const { picker, value } = makePicker(['a', 'b', 'c', 'd', 'e']);
    expect(picker.isFull()).toBe(true);
    picker.type('sixth');
    picker.showSuggestions('sixth', []);
    await picker.enter();
    expect(value()).toHaveLength(5);
  });

  it('existingFor matches a slug, or either name whatever the case', () => {
    expect(existingFor('MICROCONTROLLERS', [arm, mcu])).toBe(mcu);
    expect(existingFor('单片机', [arm, mcu])).toBe(mcu);
    expect(existingFor('ESP-32', [esp])).toBeNull();
  });
});
