/**
 * What every concept stands on: a project as a viewer may see it (published, listed, visible to
 * this viewer), page-cache purges, rate limits, sending mail and rendering Markdown.
 *
 * Other folders reach this one only through this file (`.dependency-cruiser.cjs` checks it).
 */
export { canSendMail, sendMail } from './mail.ts';
export { collectImageUrls, htmlToText, imagesInHtml, renderDescription, renderMarkdown } from './markdown.ts';
export {
  purgeDonationPages, purgeFollowPages, purgeMemberCollectionPages, purgeMemberPages,
  purgeModeratedPages, purgeProjectConversation, purgeProjectPages, purgeProjectPagesById,
  purgeVideoPages,
} from './page-purges.ts';
export {
  findPublishedProject, isListed, isPublished, isPublishedFor, publishedProjectById, seesHidden, visibleTo,
  type ProjectAudience, type PublishedProjectRef,
} from './published-projects.ts';
export {
  assertUnderRateLimit, assertUnderRateLimitRule, deleteExpiredRateLimits, DUPLICATE_COMMENT_MS,
  hitMemberRateLimit, hitMemberRateLimitById, hitRateLimit, hitRateLimitRule, isNewAccount,
  NEW_ACCOUNT_MS, RATE_LIMITS, readAccountCreatedAt,
} from './rate-limit.ts';
