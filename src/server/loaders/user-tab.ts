import { and, desc, eq } from 'drizzle-orm';
import type { Locale } from '../../lib/i18n.ts';
import { getDb } from '../db/client.ts';
import { videos } from '../db/schema/index.ts';
import { fileUrl } from '../storage/index.ts';
import type { Page, ProjectCard } from '../services/cards.ts';
import { listMessages, type MessagePage } from '../services/messages.ts';
import { listStarredProjects, listUserProjects } from '../services/project-list.ts';
import { listDrafts, type DraftItem } from '../services/drafts.ts';
import type { UserPageContext, UserTab } from './user.ts';

export interface VideoCard {
  id: string;
  title: string;
  poster: string | null;
  duration: number | null;
  createdAt: string;
}

export type UserTabData =
  | { tab: 'projects'; page: Page<ProjectCard>; statusCounts: { published: number; draft: number } | null }
  | { tab: 'stars'; page: Page<ProjectCard> }
  | { tab: 'video'; videos: VideoCard[] }
  | { tab: 'draftbox'; drafts: Page<DraftItem> }
  | { tab: 'message'; page: MessagePage; unreadOnly: boolean }
  | { tab: 'profile' };

/** What one tab of a user's pages shows (owner-only tabs are checked by the caller). */
export async function loadUserTab(
  tab: UserTab,
  context: UserPageContext,
  pageNumber: number,
  locale: Locale,
  url?: URL,
): Promise<UserTabData> {
  const paging = { page: pageNumber, pageSize: 12 };
  const db = getDb();
  switch (tab) {
    case 'projects': {
      const page = await listUserProjects(context.profile.url, paging, locale);
      return {
        tab,
        page,
        statusCounts: context.isOwner ? { published: context.profile.counts.projects, draft: context.draftCount } : null,
      };
    }
    case 'stars':
      return { tab, page: await listStarredProjects(context.profile.url, paging, locale) };
    case 'video': {
      const rows = await db
        .select()
        .from(videos)
        .where(and(eq(videos.ownerId, context.profile.id), eq(videos.status, 'ready')))
        .orderBy(desc(videos.createdAt))
        .limit(50);
      return {
        tab,
        videos: rows.map((row) => ({
          id: row.id,
          title: row.title,
          poster: row.poster ? fileUrl(row.poster) : null,
          duration: row.duration,
          createdAt: row.createdAt.toISOString(),
        })),
      };
    }
    case 'draftbox':
      return { tab, drafts: await listDrafts(context.profile.id, { page: pageNumber, pageSize: 20 }) };
    case 'message': {
      // Owner only (checked by the caller); `?filter=unread` lists unread messages only.
      const unreadOnly = url?.searchParams.get('filter') === 'unread';
      return { tab, unreadOnly, page: await listMessages(context.profile.id, { page: pageNumber, pageSize: 20, unreadOnly }) };
    }
    default:
      return { tab };
  }
}


