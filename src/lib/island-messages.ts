import type enUS from '../../locales/en-US.json';
import { ERROR_KEYS } from './contract/errors.ts';
import { messagesByLocale, type Locale } from './i18n.ts';

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
 * The messages an island gets with its props: a part of one locale file, as JSON. A string, not
 * the object: Astro serialises an island's props on every render, and walking a few hundred
 * messages (the contract's errors alone are about 5 KB) took longer than rendering the island;
 * a string is copied as it is. The browser reads it once (`I18nProvider`); the server never needs
 * it, since it translates from the locale files themselves.
 */
export type IslandMessages = string & { readonly islandMessages: unique symbol };

const picked = new Map<string, IslandMessages>();

/**
 * The part of `locale`'s messages that `island` uses. Of `errors` only the contract's keys are
 * sent (the error pages' own texts stay on the server). Messages never change while the process
 * runs, so each pick is made once.
 */
export function islandMessages(locale: Locale, island: IslandName): IslandMessages {
  const cacheKey = `${locale}:${island}`;
  let messages = picked.get(cacheKey);
  if (!messages) {
    const all = messagesByLocale[locale];
    messages = JSON.stringify(
      Object.fromEntries(
        ISLAND_NAMESPACES[island].map((namespace) => {
          const part = all[namespace] as Record<string, unknown>;
          return [namespace, namespace === 'errors' ? Object.fromEntries(ERROR_KEYS.map((key) => [key, part[key]])) : part];
        }),
      ),
    ) as IslandMessages;
    picked.set(cacheKey, messages);
  }
  return messages;
}
