import { count, isoDateTime, pageOf, projectRefSchema, serialId, userRefSchema, z } from './common.ts';

export const MESSAGE_KINDS = ['comment', 'reply', 'star', 'like', 'comment_like', 'system', 'report_resolved', 'follow', 'make', 'followed_project', 'followed_log', 'followed_version', 'followed_make'] as const;

export const textLinkSchema = z
  .object({ start: z.number().int().min(0), end: z.number().int().min(0), href: z.string() })
  .meta({ id: 'TextLink', description: '`text.slice(start, end)` (UTF-16 offsets) links to `href`.' });

export const commentItemSchema = z
  .object({
    id: serialId,
    content: z.string().meta({ description: 'Plain text; empty when deleted.' }),
    links: z.array(textLinkSchema),
    author: userRefSchema.nullable(),
    replyTo: z.object({ url: z.string(), nickname: z.string() }).nullable(),
    parentId: serialId.nullable(),
    likeCount: count,
    liked: z.boolean(),
    createdAt: isoDateTime,
    deleted: z.boolean(),
    canDelete: z.boolean(),
    byOwner: z.boolean(),
  })
  .meta({ id: 'CommentItem', description: 'One comment or reply.' });

export const commentThreadSchema = commentItemSchema
  .extend({ replies: z.array(commentItemSchema), replyCount: count })
  .meta({ id: 'CommentThread', description: 'A top-level comment with the newest replies of its thread.' });

export const commentListSchema = z
  .union([pageOf(commentThreadSchema), pageOf(commentItemSchema)])
  .meta({ description: 'Top-level comments with their newest replies; with `commentId`, a page of that thread’s replies.' });

export const messageItemSchema = z
  .object({
    id: serialId,
    kind: z.enum(MESSAGE_KINDS),
    actor: userRefSchema.nullable(),
    project: projectRefSchema.nullable(),
    comment: z
      .object({ id: serialId, excerpt: z.string(), log: z.number().int().positive().optional().meta({ description: 'The number of the build log the comment is on; absent for a comment on the project itself.' }) })
      .nullable(),
    body: z.string().nullable(),
    path: z.string().nullable().meta({ description: 'For news from what the member follows: the desktop path of the log, version, make or project it tells about.' }),
    read: z.boolean(),
    createdAt: isoDateTime,
  })
  .meta({ id: 'MessageItem' });

export const messagePageSchema = pageOf(messageItemSchema)
  .extend({ unread: count.meta({ description: 'All unread messages of the recipient, whatever the page.' }) })
  .meta({ id: 'MessagePage' });

export const commentDeletedSchema = z.object({ commentId: serialId });
export const messageReadSchema = z.object({ id: serialId, unread: count });
export const messagesUpdatedSchema = z.object({ updated: count });
