import type enUS from '../../locales/en-US.json';
import { ERROR_KEYS } from './contract/errors.ts';
import { messagesByLocale, type Locale } from './i18n.ts';
import { MESSAGES_ATTRIBUTE } from './messages-ref.ts';

/** A top-level namespace of the locale files (`comments`, `errors`, …). */
export type Namespace = keyof typeof enUS;

/**
 * The namespaces each island (and everything it renders) translates from. The server hands an
 * island just these with its props, so it can render and take input the moment it hydrates
 * instead of waiting for a download; `tests/unit/island-messages.test.ts` checks every key the
 * island's code names is covered.
 */
export const ISLAND_NAMESPACES = {
  BoardViewer: ['eda'],
  BomTable: ['eda'],
  Comments: ['comments', 'common', 'errors', 'report', 'validation'],
  DraftBox: ['drafts', 'user', 'common', 'errors'],
  EdaViews: ['schematic'],
  EmailSettings: ['profile', 'validation', 'errors'],
  FollowButton: ['follow', 'errors'],
  HeaderUserMenu: ['account'],
  LogEditor: ['logs', 'form', 'validation', 'errors', 'common'],
  MakeDelete: ['makes', 'common', 'errors'],
  MakeForm: ['makes', 'validation', 'errors', 'cropper', 'common'],
  NotificationSettings: ['notificationSettings', 'errors'],
  MessageList: ['messages', 'pagination', 'errors'],
  ProfileEditor: ['profile', 'user', 'validation', 'errors', 'cropper', 'common'],
  ProjectForm: ['form', 'validation', 'errors', 'cropper', 'common'],
  ProjectOwnerActions: ['project', 'common', 'errors'],
  ProjectReactions: ['reactions', 'errors'],
  RemixButton: ['remix', 'errors'],
  ReportButton: ['report', 'common', 'errors', 'validation'],
  SaveToCollection: ['memberCollections', 'errors', 'validation'],
  CardSaveMenus: ['memberCollections', 'errors', 'validation'],
  CollectionOwnerTools: ['memberCollections', 'common', 'errors', 'validation'],
  ModerationQueue: ['admin', 'errors'],
  StaffBanners: ['admin', 'common', 'errors', 'validation', 'cropper'],
  StaffCollections: ['admin', 'common', 'errors', 'validation', 'cropper'],
  StaffRecommendations: ['admin', 'errors', 'validation'],
  StaffTags: ['admin', 'common', 'errors', 'validation'],
  UnreadBadge: ['messages'],
  UnstarButton: ['stars', 'errors'],
  VideoGrid: ['video'],
  VideoPlayer: ['video'],
  VerifyEmailBanner: ['verifyBanner', 'errors'],
  VideoUploader: ['video', 'common', 'errors', 'validation'],
} as const satisfies Record<string, readonly Namespace[]>;

export type IslandName = keyof typeof ISLAND_NAMESPACES;

/**
 * What an island gets in its `messages` prop: which blocks of messages it reads (`en-US:follow,errors`),
 * a few bytes. The messages themselves are in the page, each namespace of a language once, as a
 * JSON script element (`islandMessageBlocks`) written before the island's element. Handed to
 * each island in its props, as they once were, every island carried its own copy of `errors`
 * (4.5 KB) and `validation` (2.7 KB), escaped twice over into an HTML attribute: half of a
 * member's project page (112 KB) and a millisecond of its render went to that.
 */
export type IslandMessages = string & { readonly islandMessages: unique symbol };

const refs = new Map<string, IslandMessages>();
const blocks = new Map<string, string>();

/** The namespaces `island` reads, in `locale`: its `messages` prop. */
export function islandMessages(locale: Locale, island: IslandName): IslandMessages {
  const cacheKey = `${locale}:${island}`;
  let ref = refs.get(cacheKey);
  if (!ref) refs.set(cacheKey, (ref = `${locale}:${ISLAND_NAMESPACES[island].join(',')}` as IslandMessages));
  return ref;
}

/**
 * One namespace of `locale`'s messages as JSON: of `errors` only the contract's keys (the error
 * pages' own texts stay on the server).
 */
function namespaceMessages(locale: Locale, namespace: Namespace): Record<string, unknown> {
  const part = messagesByLocale[locale][namespace] as Record<string, unknown>;
  return namespace === 'errors' ? Object.fromEntries(ERROR_KEYS.map((key) => [key, part[key]])) : part;
}

/**
 * The script elements holding the messages `island` reads, one per namespace, for the page to
 * write before the island (`IslandMessages.astro`). A page with several islands writes a
 * namespace once for each; the page cache keeps the first of each on the pages it keeps and
 * fills (`keepFirstMessageBlocks`), which is before every island reading it. Made once per
 * language and island: messages never change while the process runs.
 */
export function islandMessageBlocks(locale: Locale, island: IslandName): string {
  const cacheKey = `${locale}:${island}`;
  let html = blocks.get(cacheKey);
  if (!html) {
    // `<` written as its escape, so no text of a message can end the script element.
    html = ISLAND_NAMESPACES[island]
      .map((namespace) => `<script type="application/json" ${MESSAGES_ATTRIBUTE}="${locale}:${namespace}">${JSON.stringify(namespaceMessages(locale, namespace)).replace(/</g, '\\u003c')}</script>`)
      .join('');
    blocks.set(cacheKey, html);
  }
  return html;
}
