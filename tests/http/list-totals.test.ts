import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../src/server/db/client.ts';
import { COUNT_LIMIT } from '../../src/server/services/projects/index.ts';
import { PHONE_UA, useApp, type AppResponse } from '../helpers/app.ts';
import { createProject, createTag, createUser } from '../helpers/factories.ts';

const app = useApp();

/** More projects in one tag than a list counts: its total is an estimate. */
const CROWDED = COUNT_LIMIT + 20;
let makerUrl = '';

beforeAll(async () => {
  const { user } = await createUser();
  makerUrl = user.customUrl;
  const crowded = await createTag('crowded-t', 'Crowded', '拥挤');
  const quiet = await createTag('quiet-t', 'Quiet', '安静');
  for (let i = 0; i < 3; i += 1) await createProject(user.id, { title: `Quiet board ${i}` }, [quiet.id]);
  // In one statement: a thousand projects one by one would take most of the test.
  await getDb().execute(sql`
    WITH made AS (
      INSERT INTO projects (public_id, owner_id, title, summary, description_md, description_html, licence, published_at)
      SELECT 'crowd' || lpad(g::text, 5, '0'), ${user.id}, 'Crowded board ' || g, 'One of many', 'Hello', '<p>Hello</p>', 'CERN-OHL-S-2.0', now() - g * interval '1 minute'
      FROM generate_series(1, ${CROWDED}) AS g
      RETURNING id)
    INSERT INTO project_tags (project_id, tag_id) SELECT id, ${crowded.id} FROM made`);
});

const listTotal = (page: AppResponse) => /data-testid="list-total"[^>]*>([^<]*)</.exec(page.body)?.[1];
const nextHref = (page: AppResponse) => /rel="next" href="([^"]+)"/.exec(page.body)?.[1]?.replaceAll('&amp;', '&');
const cardsOn = (page: AppResponse) => new Set([...page.body.matchAll(/\/d-(crowd\d+)/g)].map((match) => match[1]!));

describe('the number of projects a list shows', () => {
  it('is exact for a list within the counting limit, in both languages and on phones', async () => {
    expect(listTotal(await app.request('/newest?tag=quiet-t'))).toBe('3 projects');
    expect(listTotal(await app.request('/newest?tag=quiet-t', { headers: { 'accept-language': 'zh-CN' } }))).toBe('3 个项目');
    expect(listTotal(await app.request('/m/newest?tag=quiet-t', { headers: { 'user-agent': PHONE_UA } }))).toBe('3 projects');
  });

  it('is "about N" beyond the limit, in both languages and on phones, and the pages still lead to the last project', async () => {
    const first = await app.request('/newest?tag=crowded-t');
    const about = /^About (\d+) projects$/.exec(listTotal(first) ?? '');
    expect(about, listTotal(first)).not.toBeNull();
    expect(Number(about![1])).toBeGreaterThanOrEqual(COUNT_LIMIT);
    expect(first.body).toMatch(/Page 1 of about \d+/);
    expect(listTotal(await app.request('/newest?tag=crowded-t', { headers: { 'accept-language': 'zh-CN' } }))).toMatch(/^约 \d+ 个项目$/);
    expect(listTotal(await app.request('/m/recommend?tag=crowded-t', { headers: { 'user-agent': PHONE_UA } }))).toMatch(/^About \d+ projects$/);

    // "Next" from page to page shows every project once; the last page knows the exact number.
    const seen = new Set<string>();
    let page = first;
    let pages = 1;
    for (let href = nextHref(first); href; href = nextHref(page)) {
      page = await app.request(href);
      pages += 1;
      for (const id of cardsOn(page)) seen.add(id);
      expect(pages).toBeLessThan(100);
    }
    for (const id of cardsOn(first)) seen.add(id);
    expect(seen.size).toBe(CROWDED);
    expect(pages).toBe(Math.ceil(CROWDED / 24));
    expect(listTotal(page)).toBe(`${CROWDED} projects`);

    // A page past the end answers the list's page with no projects, saying so, and leads back to
    // the list's first page, in both languages and on phones.
    const past = await app.request('/newest?tag=crowded-t&page=500');
    expect(past.status).toBe(200);
    expect(cardsOn(past).size).toBe(0);
    expect(past.body).toContain('Nothing on this page');
    expect(past.body).toContain('<a class="btn btn-primary" href="/newest?tag=crowded-t">Go to the first page</a>');
    // The list was read to its end to find that page: its pagination says how long the list is,
    // not "Page 500 of 43", and leads to its last page; so does the page's title.
    expect(past.body).toContain(`The list has ${pages} pages`);
    expect(past.body).not.toContain('Page 500');
    expect(past.body).toMatch(new RegExp(`<a class="btn" href="/newest\\?tag=crowded-t&amp;page=${pages}"[^>]*>← Last page</a>`));
    expect(past.body).toMatch(/<title>[^<]*· Nothing on this page/);
    const pastZh = await app.request('/m/recommend?page=900', { headers: { 'user-agent': PHONE_UA, 'accept-language': 'zh-CN' } });
    expect(pastZh.body).toContain('这一页没有项目');
    expect(pastZh.body).toMatch(/列表共 \d+ 页/);
    expect(pastZh.body).toContain('← 最后一页</a>');
    expect(pastZh.body).toContain('<a class="btn btn-primary" href="/m/recommend">回到第一页</a>');
    // The way back keeps the list's order.
    expect((await app.request('/newest?sort=hot&page=900')).body).toContain('<a class="btn btn-primary" href="/newest?sort=hot">Go to the first page</a>');
    // A list of three counted exactly, its page 2 typed: the same.
    const typed = await app.request('/newest?tag=quiet-t&page=2');
    expect(typed.body).toContain('Nothing on this page');
    expect(typed.body).not.toContain('No projects tagged');
    // A search's page and a member's page past their ends: the same, not "no projects".
    const search = await app.request('/search?q=quiet&sort=newest&page=9');
    expect(search.body).toContain('Nothing on this page');
    expect(search.body).toContain('<a class="btn btn-primary" href="/search?q=quiet&amp;sort=newest">Go to the first page</a>');
    const member = await app.request(`/m/user/${makerUrl}?page=90`, { headers: { 'user-agent': PHONE_UA, 'accept-language': 'zh-CN' } });
    expect(member.status).toBe(200);
    expect(member.body).toContain('这一页没有项目');
    expect(member.body).toContain(`<a class="btn btn-primary" href="/m/user/${makerUrl}">回到第一页</a>`);
  });
});
