import { count, isoDateTime, serialId, userRefSchema, z } from './common.ts';
import { projectCardSchema } from './projects.ts';

/** The kinds of `activities` (the schema's `ACTIVITY_KINDS`, which the server's types check against this). */
export const FEED_ACTIVITY_KINDS = ['project', 'log', 'version', 'make'] as const;
export const FOLLOW_TARGET_KINDS = ['user', 'project', 'tag'] as const;
export const NOTIFICATION_SETTING_KINDS = ['comments', 'replies', 'stars', 'likes', 'follows', 'makes', 'logs'] as const;

/** What `follow/set` answers. */
export const followStateSchema = z
  .object({ following: z.boolean(), followers: count.meta({ description: 'Members following the target now.' }) })
  .meta({ id: 'FollowState' });

/** One entry of the Following feed. */
export const feedItemSchema = z
  .object({
    id: serialId.meta({ description: 'The activity.' }),
    kind: z.enum(FEED_ACTIVITY_KINDS),
    actor: userRefSchema,
    project: projectCardSchema,
    title: z.string().meta({ description: 'The log’s title, the version’s name, the make’s note; empty for a new project.' }),
    path: z.string().meta({ description: 'The desktop path it links to, e.g. `/d-{id}/log/{n}`.' }),
    createdAt: isoDateTime,
  })
  .meta({ id: 'FeedItem' });

/** A page of the feed: newest first; `hasMore` says whether a next page exists (a feed is never counted whole). */
export const feedPageSchema = z
  .object({ list: z.array(feedItemSchema), page: z.number().int().min(1), pageSize: z.number().int().min(1).max(50), hasMore: z.boolean() })
  .meta({ id: 'FeedPage' });

const channelChoice = z.object({ site: z.boolean(), email: z.boolean() });

/** Every kind with its choice per channel. */
export const notificationSettingsSchema = z
  .object(Object.fromEntries(NOTIFICATION_SETTING_KINDS.map((kind) => [kind, channelChoice])) as Record<(typeof NOTIFICATION_SETTING_KINDS)[number], typeof channelChoice>)
  .meta({ id: 'NotificationSettings', description: 'Per kind: whether it arrives as a message on the site, and in the daily email digest.' });

export type FollowStateInfo = z.infer<typeof followStateSchema>;
export type FeedItem = z.infer<typeof feedItemSchema>;
export type FeedPage = z.infer<typeof feedPageSchema>;
export type NotificationSettingsInfo = z.infer<typeof notificationSettingsSchema>;
export type NotificationSettingKind = (typeof NOTIFICATION_SETTING_KINDS)[number];
