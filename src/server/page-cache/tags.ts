/**
 * What a cached guest page shows, as tags, and the purge that a write sends for the tags it
 * changed. A page is stored with the tags its loader names (`ok(data, { tags })`); a write calls
 * `purgePages(...)` once its transaction has committed, and every instance drops the pages that
 * carry one of those tags: this process at once, the others through PostgreSQL `NOTIFY`.
 */
import { EventEmitter } from 'node:events';
import { listenOnChannel, sendNotice } from '../db/notices.ts';
import { log } from '../log.ts';

export const pageTags = {
  /** A project's own pages (project, electronics, its cards' data). */
  project: (publicId: string) => `project:${publicId}`,
  /** A member's pages (by custom URL), and every page that shows them as owner. */
  user: (url: string) => `user:${url}`,
  /**
   * What a member's own pages show of their own doing (their stars, likes, follows, comment
   * likes): the pages kept for that member alone, purged by each write they make.
   */
  member: (userId: number) => `member:${userId}`,
  /** Every page listing projects: home, newest, recommended, tags, collections, search, feeds. */
  lists: 'lists',
  /** What only the home page shows besides lists: banners, donations, collections. */
  home: 'home',
  /** "Not found" answers: whatever is published next may be what they said is missing. */
  missing: 'missing',
} as const;

/**
 * The tags of an answer listing project cards (an API list): every list, and each card's project
 * and owner, since a star, a comment count or a renamed owner changes a card without touching the
 * list's own tag.
 */
export function cardListTags(cards: readonly { id: string; owner: { url: string } }[]): string[] {
  return [pageTags.lists, ...cards.flatMap((card) => [pageTags.project(card.id), pageTags.user(card.owner.url)])];
}

const CHANNEL = 'copperhub_page_purge';

/**
 * One purge bus per process: the server entry (run from source, where the page cache lives) and
 * the built site (bundled by Astro, where the API's writes run) each load this module, so its
 * state lives on `globalThis`, not in module variables.
 */
interface PurgeBus {
  local: EventEmitter;
  /** This process's name in its notices, so it does not purge twice what it purged at once. */
  instanceId: string;
  broadcasting: boolean;
  listening: boolean;
  listener?: { close(): Promise<void> } | undefined;
  /** The connection dropped or could not be made: notices may have been missed since. */
  deaf?: boolean;
  /** Notices on their way, for a short-lived process that must not exit before they are sent. */
  sending?: Set<Promise<void>>;
}
const bus: PurgeBus = ((globalThis as { [key: symbol]: PurgeBus })[Symbol.for('copperhub.pagePurge')] ??= {
  local: new EventEmitter().setMaxListeners(0),
  instanceId: `${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
  broadcasting: false,
  listening: false,
});
const local = bus.local;

/** Runs `listener` with the tags of every purge, from this process or (once listening) any other. */
export function onPagePurge(listener: (tags: string[]) => void): () => void {
  local.on('purge', listener);
  return () => local.off('purge', listener);
}

/**
 * Drops the cached pages that show any of `tags`, here and on every other instance. Call it after
 * the write committed; it never throws (a lost notice costs other instances a page as old as the
 * cache's freshness, never a failed write).
 */
export function purgePages(...tags: string[]): void {
  const unique = [...new Set(tags.filter(Boolean))];
  if (unique.length === 0) return;
  local.emit('purge', unique);
  if (!bus.broadcasting) return;
  // NOTIFY payloads are limited to 8000 bytes: long tag lists go in several notices.
  for (const chunk of chunks(unique, 7000)) {
    const sending = sendNotice(CHANNEL, `${bus.instanceId} ${chunk.join(' ')}`).catch((error: unknown) => log.error({ component: 'page-cache', err: error }, 'purge notice not sent'));
    const pending = (bus.sending ??= new Set());
    pending.add(sending);
    void sending.finally(() => pending.delete(sending));
  }
}

function chunks(tags: string[], maxBytes: number): string[][] {
  const out: string[][] = [[]];
  let size = 0;
  for (const tag of tags) {
    if (size + tag.length + 1 > maxBytes && out.at(-1)!.length > 0) {
      out.push([]);
      size = 0;
    }
    out.at(-1)!.push(tag);
    size += tag.length + 1;
  }
  return out;
}


/**
 * Sends this process's purges to the other instances too (the site and `npm run worker`); off in
 * tests and scripts, whose writes have no other instance to tell.
 */
export function broadcastPagePurges(): void {
  bus.broadcasting = true;
}

/** Resolves once every purge notice sent so far has gone (`npm run ops` waits for it before it exits). */
export async function flushPagePurges(): Promise<void> {
  await Promise.all([...(bus.sending ?? [])]);
}

/**
 * Listens for other instances' purges on its own connection (a pooled one cannot keep a LISTEN),
 * reconnecting after a drop (every half second while the database is away). A drop may have lost
 * notices, so everything cached is purged when it happens and again once listening again: a page
 * rendered after the database came back but before this connection did would otherwise miss the
 * notices sent meanwhile and stay as it was for the cache's freshness (30 s).
 */
export async function listenForPagePurges(): Promise<void> {
  if (bus.listening) return;
  bus.listening = true;
  bus.broadcasting = true;
  await connect();
}

const RECONNECT_MS = 500;

async function connect(): Promise<void> {
  if (!bus.listening) return;
  const retryLater = () => {
    bus.listener = undefined;
    if (bus.listening) setTimeout(() => void connect(), RECONNECT_MS).unref();
  };
  try {
    bus.listener = await listenOnChannel(
      CHANNEL,
      (payload) => {
        const [from, ...tags] = payload.split(' ');
        if (from !== bus.instanceId && tags.length > 0) local.emit('purge', tags);
      },
      () => {
        // Notices may have been missed while the connection was down: nothing cached is trusted.
        local.emit('purge', ['*']);
        bus.deaf = true;
        retryLater();
      },
    );
    // Stopped while connecting: the new listener goes too.
    if (!bus.listening) await stopListeningForPagePurges();
    if (bus.deaf) {
      bus.deaf = false;
      log.info({ component: 'page-cache' }, 'listening for purges again');
      local.emit('purge', ['*']);
    }
  } catch (error) {
    // Said once per outage, not on every retry.
    if (!bus.deaf) log.warn({ component: 'page-cache', err: error }, 'cannot listen for purges, retrying');
    bus.deaf = true;
    retryLater();
  }
}

/**
 * Whether this process hears every purge: it does not listen for other instances' (one process,
 * tests), or its listening connection is up. While it is down, pages are served but not kept: a
 * page kept then could miss a purge sent meanwhile.
 */
export function hearsPurges(): boolean {
  return purgeListener() !== 'reconnecting';
}

/** How this process hears other instances' purges, as `/readyz` reports it. */
export function purgeListener(): 'listening' | 'reconnecting' | 'off' {
  if (!bus.listening) return 'off';
  return bus.listener !== undefined && !bus.deaf ? 'listening' : 'reconnecting';
}

/** Stops listening (shutdown, tests). */
export async function stopListeningForPagePurges(): Promise<void> {
  bus.listening = false;
  bus.broadcasting = false;
  const listener = bus.listener;
  bus.listener = undefined;
  await listener?.close();
}
