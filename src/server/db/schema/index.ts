/** Every table, one file per aggregate; drizzle-kit reads this file. */
export * from './users.ts';
export * from './sessions.ts';
export * from './rate-limits.ts';
export * from './projects.ts';
export * from './drafts.ts';
export * from './uploads.ts';
export * from './attachments.ts';
export * from './electronics.ts';
export * from './tags.ts';
export * from './collections.ts';
export * from './reactions.ts';
export * from './comments.ts';
export * from './messages.ts';
export * from './videos.ts';
export * from './donations.ts';
export * from './banners.ts';
export * from './settings.ts';
