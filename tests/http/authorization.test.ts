import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '../../src/server/db/client.ts';
import { banners, collectionProjects, collections, comments, memberCollectionProjects, memberCollections, messages, projects, reports, tags, videos, videoUploads } from '../../src/server/db/schema/index.ts';
import { newPublicId } from '../../src/server/lib/ids.ts';
import { storeDraft, savePreview } from '../../src/server/services/projects/index.ts';
import { saveLog, submitMake } from '../../src/server/services/community/index.ts';
import { useApp } from '../helpers/app.ts';
import { createProject, createTag, createUser } from '../helpers/factories.ts';
import { createUpload } from '../helpers/project-factories.ts';
import { hashToken } from '../../src/server/lib/tokens.ts';

const app = useApp();

/** A member's own things, and someone else who is signed in too. */
async function createWorld() {
  const owner = await createUser({ nickname: 'Owner' });
  const stranger = await createUser({ nickname: 'Stranger' });
  const admin = await createUser({ nickname: 'Admin', role: 'admin' });
  const project = await createProject(owner.user.id, { title: 'Owned board' });
  const [comment] = await getDb().insert(comments).values({ projectId: project.id, authorId: owner.user.id, body: 'Owner comment' }).returning();
  const [message] = await getDb().insert(messages).values({ recipientId: owner.user.id, kind: 'comment', actorId: stranger.user.id, projectId: project.id, commentId: comment!.id }).returning();
  const log = await saveLog(owner.user.id, { id: project.publicId, title: 'Owner log', content: 'Owner notes' });
  const draft = await storeDraft(owner.user.id, { title: 'Draft', summary: '', description: '', cover: null, tags: [], licence: '', attachments: [] }, {});
  const preview = await savePreview(owner.user.id, { title: 'Preview', summary: '', description: '', cover: null, tags: [], licence: '', attachments: [] });
  const videoId = newPublicId();
  await getDb().insert(videos).values({ id: videoId, ownerId: owner.user.id, title: 'Owned video', mime: 'video/mp4', size: 10, status: 'ready' });
  // an upload whose bytes have all arrived, waiting to be saved as a video
  const uploadToken = newPublicId(24);
  await getDb()
    .insert(videoUploads)
    .values({ tokenHash: hashToken(uploadToken), ownerId: owner.user.id, name: 'a.mp4', size: 10, mime: 'video/mp4', expiresAt: new Date(Date.now() + 3_600_000), tusId: newPublicId(20), finishedAt: new Date() });
  const [report] = await getDb().insert(reports).values({ reporterId: stranger.user.id, kind: 'project', targetId: project.publicId, targetUserId: owner.user.id, reason: 'spam' }).returning();
  // What the staff endpoints act on: the project pinned and in a collection, another project, two tags, a banner.
  const moderator = await createUser({ nickname: 'Moderator', role: 'moderator' });
  const other = await createProject(stranger.user.id, { title: 'Another board' });
  const suffix = newPublicId(6).toLowerCase();
  await getDb().update(projects).set({ recommendRank: 1000 }).where(sql`${projects.id} = ${project.id}`);
  const pinned = (await getDb().select({ id: projects.publicId }).from(projects).where(sql`${projects.recommendRank} IS NOT NULL`).orderBy(projects.recommendRank, projects.id)).map((row) => row.id);
  const [collection] = await getDb().insert(collections).values({ name: `set-${suffix}`, titleEn: 'Set', titleZh: '集' }).returning();
  await getDb().insert(collectionProjects).values({ collectionId: collection!.id, projectId: project.id });
  const tag = await createTag(`tag-${suffix}`);
  const otherTag = await createTag(`other-${suffix}`);
  const image = await createUpload(admin.user.id, { purpose: 'cover', name: 'b.webp', mime: 'image/webp', data: 'webp' });
  const [banner] = await getDb().insert(banners).values({ image: image.url, link: '/', titleEn: 'Banner', titleZh: '横幅' }).returning();
  // The owner's own collection, holding their project.
  const [memberCollection] = await getDb().insert(memberCollections).values({ ownerId: owner.user.id, slug: `picks-${suffix}`, title: 'Picks' }).returning();
  await getDb().insert(memberCollectionProjects).values({ collectionId: memberCollection!.id, projectId: project.id, position: 0 });
  // A make of the owner's (on a third member's project: the stranger's own project's owner may
  // remove makes from it), and an image of theirs no make uses yet.
  const builder = await createUser({ nickname: 'Builder' });
  const built = await createProject(builder.user.id, { title: 'Built board' });
  const made = await submitMake(owner.user.id, { id: built.publicId, content: 'Built it', images: [(await createUpload(owner.user.id, { purpose: 'image', name: 'm.webp', mime: 'image/webp', data: 'webp' })).id] });
  const makeImage = await createUpload(owner.user.id, { purpose: 'image', name: 'n.webp', mime: 'image/webp', data: 'webp' });
  const staff = { admin, moderator, otherProjectId: other.publicId, pinned, collection: collection!.name, tag: tag.slug, otherTag: otherTag.slug, imageId: image.id, bannerId: banner!.id, suffix };
  return { owner, stranger, admin, memberCollection: memberCollection!.slug, logN: log.n, makeId: made.id, makeImageId: makeImage.id, reportId: report!.id, projectId: project.publicId, commentId: comment!.id, messageId: message!.id, draftId: draft.id, previewId: preview.id, videoId, uploadToken, staff };
}

type World = Awaited<ReturnType<typeof createWorld>>;

/** Everything a write could change that belongs to someone: a refused write leaves all of it as it was. */
async function fingerprint(): Promise<unknown> {
  const { rows } = await getDb().execute(sql`
    SELECT
      (SELECT json_agg(p ORDER BY id) FROM (SELECT id, status, title, summary, star_count, like_count, comment_count, log_count, make_count, remix_count, remix_of_id, hidden_at FROM projects) p) AS projects,
      (SELECT json_agg(l ORDER BY id) FROM (SELECT id, project_id, n, title, body, deleted_at FROM project_logs) l) AS project_logs,
      (SELECT json_agg(mk ORDER BY id) FROM (SELECT id, project_id, maker_id, body FROM makes) mk) AS makes,
      (SELECT count(*) FROM uploads) AS uploads,
      (SELECT json_agg(r ORDER BY id) FROM (SELECT id, status, action FROM reports) r) AS reports,
      (SELECT count(*) FROM audit_log) AS audit,
      (SELECT json_agg(d ORDER BY id) FROM (SELECT id, content, project_id FROM drafts) d) AS drafts,
      (SELECT json_agg(c ORDER BY id) FROM (SELECT id, body, deleted_at, like_count, reply_count FROM comments) c) AS comments,
      (SELECT json_agg(m ORDER BY id) FROM (SELECT id, read_at FROM messages) m) AS messages,
      (SELECT json_agg(u ORDER BY id) FROM (SELECT id, nickname, custom_url, bio, website, avatar, hidden_at, suspended_at FROM users) u) AS users,
      (SELECT json_agg(v ORDER BY id) FROM (SELECT id, title, project_id, status FROM videos) v) AS videos,
      (SELECT json_agg(u ORDER BY token_hash) FROM (SELECT token_hash, video_id FROM video_uploads) u) AS video_uploads,
      (SELECT count(*) FROM stars) AS stars, (SELECT count(*) FROM likes) AS likes, (SELECT count(*) FROM previews) AS previews,
      (SELECT json_agg(f ORDER BY follower_id, kind, target_id) FROM (SELECT follower_id, kind, target_id FROM follows) f) AS follows,
      (SELECT json_agg(e ORDER BY user_id, comments) FROM (SELECT user_id, comments, site_off FROM email_preferences) e) AS notification_settings,
      (SELECT json_agg(r ORDER BY id) FROM (SELECT id, recommend_rank FROM projects WHERE recommend_rank IS NOT NULL) r) AS pinned,
      (SELECT json_agg(b ORDER BY id) FROM banners b) AS banners,
      (SELECT json_agg(c ORDER BY id) FROM (SELECT id, name, title_en, title_zh, cover FROM collections) c) AS collections,
      (SELECT json_agg(cp ORDER BY collection_id, project_id) FROM collection_projects cp) AS collection_projects,
      (SELECT json_agg(mc ORDER BY id) FROM (SELECT id, owner_id, slug, title, description, is_public FROM member_collections) mc) AS member_collections,
      (SELECT json_agg(mcp ORDER BY collection_id, project_id) FROM (SELECT collection_id, project_id, position FROM member_collection_projects) mcp) AS member_collection_projects,
      (SELECT json_agg(t ORDER BY id) FROM tags t) AS tags,
      (SELECT json_agg(a ORDER BY slug) FROM tag_aliases a) AS tag_aliases,
      (SELECT json_agg(pt ORDER BY project_id, tag_id) FROM project_tags pt) AS project_tags
  `);
  return rows[0];
}

/**
 * Every write of the API and whose it is: `owner` writes touch one member's things (only they may
 * make them), `member` writes are open to any signed-in member (but never to guests), `staff`
 * calls need a staff role (a member gets 403), `admin` endpoints (the staff tools, reads included)
 * admins alone (a moderator gets 403 too).
 */
const WRITES: Record<string, { who: 'owner' | 'member' | 'staff' | 'admin'; body: (world: World) => Record<string, unknown> }> = {
  'admin/banner/delete': { who: 'admin', body: (w) => ({ id: w.staff.bannerId }) },
  'admin/banner/list': { who: 'admin', body: () => ({}) },
  'admin/banner/save': { who: 'admin', body: (w) => ({ image: w.staff.imageId, link: '/newest', titleEn: 'Taken over', titleZh: '接管' }) },
  'admin/collection/addProject': { who: 'admin', body: (w) => ({ name: w.staff.collection, project: w.staff.otherProjectId }) },
  'admin/collection/delete': { who: 'admin', body: (w) => ({ name: w.staff.collection }) },
  'admin/collection/list': { who: 'admin', body: () => ({}) },
  'admin/collection/removeProject': { who: 'admin', body: (w) => ({ name: w.staff.collection, project: w.projectId }) },
  'admin/collection/reorder': { who: 'admin', body: (w) => ({ name: w.staff.collection, projects: [w.projectId] }) },
  'admin/collection/save': { who: 'admin', body: (w) => ({ name: `new-${w.staff.suffix}`, titleEn: 'New', titleZh: '新' }) },
  'admin/recommend/list': { who: 'admin', body: () => ({}) },
  'admin/recommend/pin': { who: 'admin', body: (w) => ({ project: w.staff.otherProjectId, rank: 1 }) },
  'admin/recommend/reorder': { who: 'admin', body: (w) => ({ projects: [...w.staff.pinned].reverse() }) },
  'admin/recommend/unpin': { who: 'admin', body: (w) => ({ project: w.projectId }) },
  'admin/tag/create': { who: 'admin', body: (w) => ({ slug: `made-${w.staff.suffix}`, nameEn: 'Made', nameZh: '建', parent: null }) },
  'admin/tag/list': { who: 'admin', body: () => ({}) },
  'admin/tag/merge': { who: 'admin', body: (w) => ({ from: w.staff.tag, into: w.staff.otherTag }) },
  'admin/tag/move': { who: 'admin', body: (w) => ({ slug: w.staff.tag, parent: w.staff.otherTag }) },
  'admin/tag/rename': { who: 'admin', body: (w) => ({ slug: w.staff.tag, nameEn: 'Renamed', nameZh: '改名' }) },
  'collection/add': { who: 'owner', body: (w) => ({ slug: w.memberCollection, id: w.staff.otherProjectId }) },
  'collection/del': { who: 'owner', body: (w) => ({ slug: w.memberCollection }) },
  'collection/move': { who: 'owner', body: (w) => ({ slug: w.memberCollection, id: w.projectId, position: 0 }) },
  'collection/remove': { who: 'owner', body: (w) => ({ slug: w.memberCollection, id: w.projectId }) },
  'collection/save': { who: 'owner', body: (w) => ({ slug: w.memberCollection, title: 'Taken over', public: false }) },
  'comment/del': { who: 'owner', body: (w) => ({ commentId: w.commentId }) },
  'log/del': { who: 'owner', body: (w) => ({ id: w.projectId, n: w.logN }) },
  'log/save': { who: 'owner', body: (w) => ({ id: w.projectId, title: 'Taken over', content: 'Defaced' }) },
  'make/del': { who: 'owner', body: (w) => ({ id: w.makeId }) },
  'message/read': { who: 'owner', body: (w) => ({ id: w.messageId }) },
  'project/del': { who: 'owner', body: (w) => ({ id: w.projectId }) },
  'release/editProject': { who: 'owner', body: (w) => ({ id: w.projectId, title: 'Taken over', summary: 'x', description: 'x', licence: 'MIT', publish: true }) },
  'release/savePreview': { who: 'owner', body: (w) => ({ projectId: w.projectId, title: 'Preview of someone else' }) },
  'temporary/del': { who: 'owner', body: (w) => ({ id: w.draftId }) },
  'temporary/detail': { who: 'owner', body: (w) => ({ id: w.draftId }) },
  'temporary/status': { who: 'owner', body: (w) => ({ id: w.draftId }) },
  'release/saveProject': { who: 'owner', body: (w) => ({ draftId: w.draftId, title: 'Draft taken over' }) },
  'release/getPreview': { who: 'owner', body: (w) => ({ id: w.previewId }) },
  'video/del': { who: 'owner', body: (w) => ({ id: w.videoId }) },
  'video/edit': { who: 'owner', body: (w) => ({ id: w.videoId, title: 'Taken over' }) },
  'video/saveVideo': { who: 'owner', body: (w) => ({ uploadToken: w.uploadToken, title: 'Saved by someone else' }) },
  'comment/like': { who: 'member', body: (w) => ({ commentId: w.commentId, value: true }) },
  'comment/reply': { who: 'member', body: (w) => ({ commentId: w.commentId, content: 'A reply' }) },
  'comment/submit': { who: 'member', body: (w) => ({ id: w.projectId, content: 'A comment' }) },
  'make/submit': { who: 'member', body: (w) => ({ id: w.projectId, content: 'A make', images: [w.makeImageId] }) },
  'project/remix': { who: 'member', body: (w) => ({ id: w.projectId }) },
  'project/like': { who: 'member', body: (w) => ({ id: w.projectId, value: true }) },
  'project/star': { who: 'member', body: (w) => ({ id: w.projectId, value: true }) },
  'user/delStarProject': { who: 'member', body: (w) => ({ id: w.projectId }) },
  'user/edit': { who: 'member', body: () => ({ bio: 'Edited' }) },
  'user/changeEmail': { who: 'member', body: () => ({ email: 'taken-over@example.com', password: 'any passphrase' }) },
  'user/emailSettings': { who: 'member', body: () => ({ comments: 'never' }) },
  'user/notificationSettings': { who: 'member', body: () => ({ comments: { site: false, email: false } }) },
  'follow/set': { who: 'member', body: (w) => ({ kind: 'project', target: w.projectId, value: true }) },
  'feed/list': { who: 'member', body: () => ({ page: 1, pageSize: 20 }) },
  'user/resendVerification': { who: 'member', body: () => ({}) },
  'message/allRead': { who: 'member', body: () => ({}) },
  'sso/logout': { who: 'member', body: () => ({}) },
  'sso/webviewCode': { who: 'member', body: () => ({}) },
  upload: { who: 'member', body: () => ({}) },
  'video/getVideoToken': { who: 'member', body: () => ({ name: 'clip.mp4', size: 1000, mime: 'video/mp4' }) },
  'report/submit': { who: 'member', body: (w) => ({ kind: 'project', id: w.projectId, reason: 'spam' }) },
  'admin/report/list': { who: 'staff', body: () => ({ page: 1, pageSize: 20 }) },
  'admin/report/resolve': { who: 'staff', body: (w) => ({ id: w.reportId, action: 'hide', note: 'spam' }) },
  'admin/content/restore': { who: 'staff', body: (w) => ({ kind: 'project', id: w.projectId }) },
  'admin/audit/list': { who: 'staff', body: () => ({ page: 1, pageSize: 20 }) },
};

/** The endpoints whose file asks for a signed-in member (`auth: true`). */
function signedInEndpoints(): string[] {
  const root = path.resolve('src/pages/api');
  return readdirSync(root, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && /auth:\s*true/.test(readFileSync(path.join(entry.parentPath, entry.name), 'utf8')))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).slice(0, -3).split(path.sep).join('/'))
    .sort();
}

const call = (endpoint: string, body: Record<string, unknown>, token?: string) =>
  app.request(`/api/${endpoint}`, { method: 'POST', body, headers: token ? { authorization: `Bearer ${token}` } : {} });

describe('the authorization matrix', () => {
  it('covers every endpoint that needs a signed-in member', () => {
    const needSession = signedInEndpoints().filter((endpoint) => endpoint !== 'user/getUserInfo' && !endpoint.startsWith('user/getUser') && endpoint !== 'message/list');
    expect(needSession.filter((endpoint) => !(endpoint in WRITES))).toEqual([]);
  });

  it.each(Object.keys(WRITES))('%s: a guest is asked to sign in and changes nothing', async (endpoint) => {
    const world = await createWorld();
    if (endpoint === 'release/getPreview') return; // readable by link holders; its owner check is below
    const before = await fingerprint();
    const answer = await call(endpoint, WRITES[endpoint]!.body(world));
    expect(answer.status).toBe(401);
    expect(answer.json()).toMatchObject({ retCode: 401, errorKey: 'unauthorized' });
    expect(await fingerprint()).toEqual(before);
  });

  it.each(Object.entries(WRITES).filter(([, write]) => write.who === 'owner').map(([endpoint]) => endpoint))(
    '%s: another member is refused and changes nothing; the owner succeeds',
    async (endpoint) => {
      const world = await createWorld();
      const body = WRITES[endpoint]!.body(world);
      const before = await fingerprint();
      const asStranger = await call(endpoint, body, world.stranger.token);
      expect([403, 404], asStranger.body).toContain(asStranger.status);
      expect(asStranger.json<{ retCode: number }>().retCode).toBe(asStranger.status);
      expect(await fingerprint()).toEqual(before);
      const asOwner = await call(endpoint, body, world.owner.token);
      expect(asOwner.json<{ retCode: number }>().retCode, asOwner.body).toBe(0);
    },
  );

  it.each(Object.entries(WRITES).filter(([, write]) => write.who === 'staff' || write.who === 'admin').map(([endpoint]) => endpoint))(
    '%s: a member (even the reporter) is refused 403 and changes nothing, a moderator too where admins alone may; an admin succeeds',
    async (endpoint) => {
      const world = await createWorld();
      const body = WRITES[endpoint]!.body(world);
      const before = await fingerprint();
      const refusedTo = [world.stranger, world.owner, ...(WRITES[endpoint]!.who === 'admin' ? [world.staff.moderator] : [])];
      for (const member of refusedTo) {
        const refused = await call(endpoint, body, member.token);
        expect(refused.status, refused.body).toBe(403);
        expect(refused.json()).toMatchObject({ retCode: 403, errorKey: 'forbidden' });
      }
      expect(await fingerprint()).toEqual(before);
      const asAdmin = await call(endpoint, body, world.admin.token);
      expect(asAdmin.json<{ retCode: number }>().retCode, asAdmin.body).toBe(0);
    },
  );
});
