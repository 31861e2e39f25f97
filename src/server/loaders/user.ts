import { userPath, variantPath } from '../../lib/paths.ts';
import type { ProjectPage } from '../services/projects/index.ts';
import { countDrafts, listDrafts, type DraftItem, listOwnProjects, listProjectTitles, listStarredProjects } from '../services/projects/index.ts';
import { listMessages, type MessagePage, getAccountEmail, type AccountEmail, getNotificationSettings, type NotificationSettings } from '../services/notifications/index.ts';
import { findUserByUrl, type PublicUser, listMemberMakes, type MakeItem, listCollectionsOf } from '../services/community/index.ts';
import { VIDEO_PAGE_SIZE } from '../../lib/contract/video.ts';
import { listVideos } from '../services/media/index.ts';
import { pageTags } from '../page-cache/tags.ts';
import { notFound, ok, pageParam, redirect, type PageContext, type PageLoader } from './page.ts';
import type { MemberCollection } from '../../lib/contract/schemas/collections.ts';
import type { FollowState } from '../services/community/index.ts';
import { canSendMail } from '../services/core/index.ts';
import type { Page } from '../lib/paging.ts';
import type { Video } from '../../lib/contract/schemas/videos.ts';

export type UserTab = 'projects' | 'stars' | 'collections' | 'makes' | 'video' | 'message' | 'profile' | 'draftbox' | 'notifications';

const TABS: Record<string, UserTab> = {
  '': 'projects',
  stars: 'stars',
  collections: 'collections',
  makes: 'makes',
  video: 'video',
  message: 'message',
  profile: 'profile',
  draftbox: 'draftbox',
  notifications: 'notifications',
};
const OWNER_ONLY = new Set<UserTab>(['message', 'draftbox', 'notifications']);

/** The profile every `/user/{url}` tab shows in its banner. */
export interface UserPageContext {
  profile: PublicUser;
  isOwner: boolean;
  /** The owner's number of drafts (shown only to them). */
  draftCount: number;
  /** The banner's Follow button: the viewer's state and the member's follower count. */
  follow: FollowState;
  /** How many members, projects and tags the member follows. */
  followingCount: number;
}

export type UserTabData =
  | { tab: 'projects'; page: ProjectPage; statusCounts: { published: number; draft: number } | null }
  | { tab: 'stars'; page: ProjectPage }
  | { tab: 'collections'; list: MemberCollection[] }
  | { tab: 'makes'; page: Page<MakeItem> }
  | { tab: 'video'; page: Page<Video>; projects: { id: string; title: string }[] }
  | { tab: 'draftbox'; drafts: Page<DraftItem> }
  | { tab: 'message'; page: MessagePage; unreadOnly: boolean }
  | { tab: 'profile'; email: AccountEmail | null }
  | { tab: 'notifications'; settings: NotificationSettings; mailEnabled: boolean };

/**
 * `/user/{url}[/{tab}]`: a former custom URL redirects to the same tab under the current one;
 * unknown members and tabs are 404; owner-only tabs (messages, drafts) ask guests to sign in and
 * are a 404 for other members.
 */
export const loadUserPage: PageLoader<UserPageData> = async (context) => {
  const tabKey = context.params.tab ?? '';
  const tab = TABS[tabKey];
  if (!tab) return notFound();
  const { user, variant } = context.locals;
  const found = await findUserByUrl(context.params.url ?? '', user?.id ?? null);
  if ('movedTo' in found) return redirect(variantPath(variant, userPath(found.movedTo, tabKey || undefined)) + context.url.search, 301);
  const isOwner = user?.id === found.user.id;
  const profile = await userPageContext(found.user, isOwner);
  // A member's pages show their profile and their projects' cards (lists).
  const tags = [pageTags.user(found.user.url), pageTags.lists];
  if (OWNER_ONLY.has(tab) && !isOwner) return user ? notFound() : ok({ context: profile, tab, data: null }, { tags });
  return ok({ context: profile, tab, data: await loadTab(tab, profile, context) }, { tags });
};

/** What every page under a member's banner shows of them (their tabs, a collection's page). */
export async function userPageContext(member: PublicUser, isOwner: boolean): Promise<UserPageContext> {
  return {
    profile: member,
    isOwner,
    draftCount: isOwner ? await countDrafts(member.id) : 0,
    follow: { following: member.followedByViewer, followers: member.counts.followers },
    followingCount: member.counts.following,
  };
}

/** A tab of a member's pages; `data` is null on an owner-only tab opened by a guest. */
export interface UserPageData {
  context: UserPageContext;
  tab: UserTab;
  data: UserTabData | null;
}

/** What one tab shows (owner-only tabs are checked by the caller). */
async function loadTab(tab: UserTab, { profile, isOwner, draftCount }: UserPageContext, { url, locals }: PageContext): Promise<UserTabData> {
  const page = pageParam(url);
  switch (tab) {
    case 'projects':
      return {
        tab,
        // Their number came with their profile: not counted again.
        page: await listOwnProjects(profile.id, { page, pageSize: 12 }, locals.locale, profile.counts.projects),
        statusCounts: isOwner ? { published: profile.counts.projects, draft: draftCount } : null,
      };
    case 'stars':
      return { tab, page: await listStarredProjects(profile.url, { page, pageSize: 12 }, locals.locale) };
    case 'collections':
      // Their owner sees the private ones too (guests' cached copies never do: they have no session).
      return { tab, list: (await listCollectionsOf(profile, locals.user?.id ?? null)).list };
    case 'makes':
      return { tab, page: await listMemberMakes(profile.id, { page, pageSize: 12 }, locals.user?.id ?? null) };
    case 'video': {
      // The owner also sees their videos still uploading, processing or failed, and may link new ones to their projects.
      const [videos, projects] = await Promise.all([
        listVideos({ url: profile.url, page, pageSize: VIDEO_PAGE_SIZE }, locals.user?.id ?? null),
        isOwner ? listProjectTitles(profile.id) : Promise.resolve([]),
      ]);
      return { tab, page: videos, projects };
    }
    case 'draftbox':
      return { tab, drafts: await listDrafts(profile.id, { page, pageSize: 20 }) };
    case 'message': {
      // `?filter=unread` lists unread messages only.
      const unreadOnly = url.searchParams.get('filter') === 'unread';
      return { tab, unreadOnly, page: await listMessages(profile.id, { page, pageSize: 20, unreadOnly }) };
    }
    case 'profile':
      // The owner's email section: the address and the notification emails.
      return { tab, email: isOwner ? await getAccountEmail(profile.id) : null };
    case 'notifications':
      return { tab, settings: await getNotificationSettings(profile.id), mailEnabled: canSendMail() };
  }
}
