/**
 * Build logs, as both sides need them: their addresses and the limits the form checks before the
 * server does.
 */

/** A log's title: 1 to 120 characters. */
export const LOG_TITLE_MAX = 120;
/** A log's Markdown: 1 to 20,000 characters (a long build write-up, images as links). */
export const LOG_BODY_MAX = 20_000;
/** Logs per page of the Logs tab. */
export const LOG_PAGE_SIZE = 10;

/** `/d-{id}/log/{n}`: one log's page (desktop path: wrap in `variantPath`); `'{n}'` makes the pattern an island fills in. */
export const logPath = (projectId: string, n: number | '{n}') => `/d-${projectId}/log/${n}`;

/** `/d-{id}/feed.xml`: the Atom feed of a project's logs. */
export const projectFeedPath = (projectId: string) => `/d-${projectId}/feed.xml`;
