import { readdirSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../src/server/db/client.ts';
import { comments } from '../../src/server/db/schema/index.ts';
import { useApp } from '../helpers/app.ts';
import { createProject, createUser } from '../helpers/factories.ts';

const app = useApp();

/** Every API endpoint, from the files that define them (`src/pages/api/<resource>/<action>.ts`). */
function endpointCatalogue(): string[] {
  const root = path.resolve('src/pages/api');
  const found: string[] = [];
  for (const entry of readdirSync(root, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.startsWith('[')) continue;
    const file = path.relative(root, path.join(entry.parentPath, entry.name));
    found.push(file.slice(0, -'.ts'.length).split(path.sep).join('/'));
  }
  return found.sort();
}

/** What anything could store: when an answer refuses, none of these may change. */
async function storedRows(): Promise<Record<string, number>> {
  const tables = ['users', 'projects', 'drafts', 'previews', 'uploads', 'attachments', 'comments', 'comment_likes', 'messages', 'stars', 'likes', 'project_tags', 'user_url_aliases'];
  const result = await getDb().execute<Record<string, string>>(sql.raw(`SELECT ${tables.map((table) => `(SELECT count(*) FROM ${table}) AS ${table}`).join(', ')}`));
  return Object.fromEntries(Object.entries(result.rows[0]!).map(([table, n]) => [table, Number(n)]));
}

let token = '';
const known: string[] = [];

beforeAll(async () => {
  const member = await createUser({ nickname: 'Fuzzer' });
  const other = await createUser({ nickname: 'Owner' });
  token = member.token;
  const project = await createProject(other.user.id, { title: 'Fuzz target' });
  const [comment] = await getDb().insert(comments).values({ projectId: project.id, authorId: other.user.id, body: 'A comment to aim at' }).returning();
  known.push(project.publicId, String(comment!.id), other.user.customUrl);
});

/** Values of every JSON type, with text PostgreSQL and parsers dislike: NUL, lone surrogates, huge numbers. */
const anyValue = () =>
  fc.oneof(
    fc.string(),
    fc.string({ unit: 'binary' }),
    fc.constantFrom('', ' ', '\u0000', '\ud800', '%ff', '../../etc/passwd', '<script>alert(1)</script>', 'a'.repeat(5000), ...known),
    fc.integer(),
    fc.double(),
    fc.constantFrom(0, -1, 2 ** 53, Number.MAX_SAFE_INTEGER, 1e308),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.string(), { maxLength: 4 }),
    fc.object({ maxDepth: 2 }),
  );

/** The field names the endpoints read, so random bodies reach past "unknown field" into each rule. */
const FIELDS = ['id', 'page', 'pageSize', 'value', 'title', 'summary', 'description', 'cover', 'tags', 'licence', 'attachments', 'draftId', 'projectId', 'publish', 'content', 'body', 'parentId', 'commentId', 'q', 'sort', 'tag', 'slug', 'url', 'nickname', 'bio', 'location', 'website', 'avatar', 'status', 'messageId', 'unreadOnly', 'token', 'name'];
const body = () => fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 8 })), anyValue(), { maxKeys: 8 });

describe('every endpoint, fed arbitrary input', () => {
  it('knows the whole catalogue', () => {
    const catalogue = endpointCatalogue();
    expect(catalogue).toEqual(expect.arrayContaining(['upload', 'project/star', 'comment/submit', 'release/saveProject', 'user/edit']));
  });

  it.each(endpointCatalogue())('%s never answers 5xx, always the envelope, and stores nothing when it refuses', async (endpoint) => {
    await fc.assert(
      fc.asyncProperty(body(), fc.boolean(), async (input, signedIn) => {
        const before = await storedRows();
        const response = await app.request(`/api/${endpoint}`, {
          method: 'POST',
          body: input,
          headers: signedIn ? { authorization: `Bearer ${token}` } : {},
        });
        expect(response.status, response.body.slice(0, 300)).toBeLessThan(500);
        if (endpoint === 'attachment/download' && response.status < 400) return;
        const envelope = response.json<{ retCode: number; errorKey?: string; message?: string }>();
        expect(typeof envelope.retCode).toBe('number');
        if (envelope.retCode !== 0) {
          expect(envelope.retCode).toBe(response.status);
          expect(envelope.errorKey).toMatch(/^[a-z_]+$/);
          expect(envelope.message).toBeTruthy();
          expect(await storedRows()).toEqual(before);
        }
      }),
      { numRuns: 15 },
    );
  });

  it('reads arbitrary query strings on GET without a server error', async () => {
    const readable = endpointCatalogue();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...readable), fc.array(fc.tuple(fc.constantFrom(...FIELDS), fc.string()), { maxLength: 5 }), async (endpoint, pairs) => {
        const query = new URLSearchParams(pairs).toString();
        const response = await app.request(`/api/${endpoint}${query ? `?${query}` : ''}`);
        expect(response.status, `${endpoint}?${query}`).toBeLessThan(500);
      }),
      { numRuns: 120 },
    );
  });
});
