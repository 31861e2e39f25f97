import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../helpers/db.ts';
import { createProject, createUser } from '../helpers/factories.ts';
import { getDb } from '../../src/server/db/client.ts';
import { drafts, messages } from '../../src/server/db/schema/index.ts';
import { parseInput } from '../../src/server/http/validation.ts';
import { editProfile, editProfileSchema, getUserInfo } from '../../src/server/services/accounts/index.ts';
import { countUserProjectStatus } from '../../src/server/services/projects/index.ts';
import { storeUpload } from '../../src/server/services/media/index.ts';
import { findUserByUrl, getPublicUser } from '../../src/server/services/community/index.ts';
import { newPublicId } from '../../src/server/lib/ids.ts';
import sharp from 'sharp';

useTestDatabase();

const edit = async (userId: number, raw: unknown) => editProfile(userId, parseInput(editProfileSchema, raw));
const fieldsOf = async (promise: Promise<unknown>) => ((await promise.catch((e: unknown) => e)) as { fields?: Record<string, string> }).fields;

describe('user/getUserInfo', () => {
  it('answers the member with the number of unread messages', async () => {
    const { user } = await createUser({ nickname: 'Ada', bio: 'Engines', website: 'https://ada.example' });
    const { user: other } = await createUser();
    await getDb().insert(messages).values([
      { recipientId: user.id, kind: 'star', actorId: other.id },
      { recipientId: user.id, kind: 'like', actorId: other.id },
      { recipientId: user.id, kind: 'comment', actorId: other.id, readAt: new Date() },
      { recipientId: other.id, kind: 'star', actorId: user.id },
    ]);
    expect(await getUserInfo(user.id)).toEqual({
      id: user.id,
      url: user.customUrl,
      nickname: 'Ada',
      avatar: null,
      bio: 'Engines',
      location: '',
      website: 'https://ada.example',
      createdAt: user.createdAt.toISOString(),
      unreadMessages: 2,
    });
  });
});

describe('user/getUserProjectStatusCount', () => {
  it('counts published projects and drafts of the member only', async () => {
    const { user } = await createUser();
    const { user: other } = await createUser();
    await createProject(user.id);
    await createProject(user.id);
    await createProject(user.id, { status: 'deleted' });
    await createProject(other.id);
    const content = { title: 'Draft', summary: '', description: '', cover: null, tags: [], licence: 'MIT', attachments: [] };
    await getDb().insert(drafts).values([
      { id: newPublicId(), ownerId: user.id, content },
      { id: newPublicId(), ownerId: other.id, content },
    ]);
    expect(await countUserProjectStatus(user.id)).toEqual({ published: 2, draft: 1 });
  });
});

describe('user/edit', () => {
  it('updates the given fields and leaves the others', async () => {
    const { user } = await createUser({ nickname: 'Before', bio: 'Old bio' });
    const updated = await edit(user.id, { nickname: '  After  ', location: 'Shenzhen', website: 'https://after.example/' });
    expect(updated).toMatchObject({ nickname: 'After', bio: 'Old bio', location: 'Shenzhen', website: 'https://after.example/', url: user.customUrl });
    expect((await edit(user.id, { website: '' })).website).toBe('');
  });

  it('refuses bad custom URLs with a field error each', async () => {
    const { user } = await createUser();
    expect(await fieldsOf(edit(user.id, { url: 'admin' }))).toEqual({ url: 'url_reserved' });
    expect(await fieldsOf(edit(user.id, { url: 'sso' }))).toEqual({ url: 'url_reserved' });
    expect(await fieldsOf(edit(user.id, { url: 'ab' }))).toEqual({ url: 'url_length' });
    expect(await fieldsOf(edit(user.id, { url: 'bad_url!' }))).toEqual({ url: 'url_format' });
    expect(await fieldsOf(edit(user.id, { website: 'javascript:alert(1)' }))).toEqual({ website: 'website_protocol' });
    expect(await fieldsOf(edit(user.id, { nickname: '' }))).toEqual({ nickname: 'required' });
    expect(await fieldsOf(edit(user.id, { bio: 'x'.repeat(501) }))).toEqual({ bio: 'too_big' });
    // Upper case is simply lowered.
    expect((await edit(user.id, { url: 'Mixed-Case-Url' })).url).toBe('mixed-case-url');
  });

  it('refuses a URL someone else has, or had (409 url_taken)', async () => {
    const { user: taker } = await createUser();
    const { user: holder } = await createUser({ customUrl: 'holder-url' });
    const taken = await edit(taker.id, { url: 'holder-url' }).catch((e: unknown) => e);
    expect(taken).toMatchObject({ status: 409, errorKey: 'url_taken', fields: { url: 'url_taken' } });
    await edit(holder.id, { url: 'holder-new' });
    const former = await edit(taker.id, { url: 'holder-url' }).catch((e: unknown) => e);
    expect(former).toMatchObject({ status: 409, errorKey: 'url_taken' });
  });

  it('keeps the old URL redirecting to the new one, and lets the member take it back', async () => {
    const { user } = await createUser({ customUrl: 'first-url' });
    await edit(user.id, { url: 'second-url' });
    expect(await findUserByUrl('first-url')).toEqual({ movedTo: 'second-url' });
    await edit(user.id, { url: 'third-url' });
    expect(await findUserByUrl('first-url')).toEqual({ movedTo: 'third-url' });
    expect(await findUserByUrl('second-url')).toEqual({ movedTo: 'third-url' });
    expect((await getPublicUser('first-url')).url).toBe('third-url');
    await edit(user.id, { url: 'first-url' });
    expect(await findUserByUrl('first-url')).toMatchObject({ user: { url: 'first-url' } });
    expect(await findUserByUrl('third-url')).toEqual({ movedTo: 'first-url' });
  });

  it('sets an avatar only from the member own avatar uploads, and removes it with null', async () => {
    const { user } = await createUser();
    const { user: other } = await createUser();
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#b0521d' } }).png().toBuffer();
    const mine = await storeUpload(user.id, 'avatar', { name: 'me.png', bytes: png });
    const theirs = await storeUpload(other.id, 'avatar', { name: 'them.png', bytes: png });
    const cover = await storeUpload(user.id, 'cover', { name: 'cover.png', bytes: png });
    expect((await edit(user.id, { avatar: mine.id })).avatar).toBe(mine.url);
    expect((await edit(user.id, { avatar: mine.url })).avatar).toBe(mine.url);
    for (const ref of [theirs.id, theirs.url, cover.id, 'missing', '/files/images/../../etc/passwd']) {
      expect(await fieldsOf(edit(user.id, { avatar: ref }))).toEqual({ avatar: 'upload_invalid' });
    }
    expect((await getUserInfo(user.id)).avatar).toBe(mine.url);
    expect((await edit(user.id, { avatar: null })).avatar).toBeNull();
  });
});
