/** Payloads of the comment and message endpoints, shared by server and islands. */

import type { z } from 'zod';
import type { userRefSchema } from './contract/schemas/common.ts';
import type { commentItemSchema, commentThreadSchema, messageItemSchema, messagePageSchema, MESSAGE_KINDS } from './contract/schemas/conversation.ts';

export type CommentSort = 'newest' | 'oldest';

export type CommentUser = z.infer<typeof userRefSchema>;

/** One comment or reply as `comment/list` answers it. */
export type CommentItem = z.infer<typeof commentItemSchema>;

/** A top-level comment with the newest replies of its thread (in the order they were written). */
export type CommentThread = z.infer<typeof commentThreadSchema>;

export type MessageKind = (typeof MESSAGE_KINDS)[number];

/** One message as `message/list` answers it. */
export type MessageItem = z.infer<typeof messageItemSchema>;

export interface ListPage<T> {
  list: T[];
  total: number;
  page: number;
  pageSize: number;
}

export type MessagePage = z.infer<typeof messagePageSchema>;
