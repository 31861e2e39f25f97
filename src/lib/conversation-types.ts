/** Payloads of the comment and message endpoints, shared by server and islands. */

import type { TextLink } from './text-links.ts';

export type CommentSort = 'newest' | 'oldest';

export interface CommentUser {
  url: string;
  nickname: string;
  avatar: string | null;
}

/** One comment or reply as `comment/list` answers it. */
export interface CommentItem {
  id: number;
  /** Plain text (render escaped, with line breaks and links); empty when deleted. */
  content: string;
  /** The links in `content`, found by the server (`findLinks`), in order; empty when deleted. */
  links: TextLink[];
  /** Null only for a deleted comment kept as a tombstone. */
  author: CommentUser | null;
  /** Whom a reply answers; null on top-level comments. */
  replyTo: { url: string; nickname: string } | null;
  /** The top-level comment a reply belongs to; null on top-level comments. */
  parentId: number | null;
  likeCount: number;
  /** Whether the viewer likes it. */
  liked: boolean;
  createdAt: string;
  deleted: boolean;
  /** Whether the viewer may delete it: its author or the project's owner. */
  canDelete: boolean;
  /** Whether its author owns the project. */
  byOwner: boolean;
}

/** A top-level comment with the newest replies of its thread (in the order they were written). */
export interface CommentThread extends CommentItem {
  replies: CommentItem[];
  /** Replies in the thread, deleted ones excluded. */
  replyCount: number;
}

export type MessageKind = 'comment' | 'reply' | 'star' | 'like' | 'comment_like' | 'system';

/** One message as `message/list` answers it. */
export interface MessageItem {
  id: number;
  kind: MessageKind;
  /** Who did it; null for system messages or a removed account. */
  actor: CommentUser | null;
  /** The project it is about; null when there is none or it is no longer published. */
  project: { id: string; title: string } | null;
  /** The comment it is about (the new comment or reply, or the liked comment); null when deleted. */
  comment: { id: number; excerpt: string } | null;
  /** Text of a system message. */
  body: string | null;
  read: boolean;
  createdAt: string;
}

export interface ListPage<T> {
  list: T[];
  total: number;
  page: number;
  pageSize: number;
}

export interface MessagePage extends ListPage<MessageItem> {
  /** All unread messages of the recipient, whatever the page. */
  unread: number;
}
