import type { APIRequestContext } from '@playwright/test';

/**
 * The first recommended projects: demo content seeded on first start. Only the seed ranks
 * projects for `/recommend`, so the projects other tests publish on the same server never come
 * first, however often the suite runs.
 */
export async function firstProjects(request: APIRequestContext, pageSize = 5) {
  const response = await request.get(`/api/project/list?sort=recommend&pageSize=${pageSize}`);
  const body = await response.json();
  return body.result.list as { id: string; title: string; owner: { url: string; nickname: string } }[];
}

export const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
export const GOOGLEBOT_UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
