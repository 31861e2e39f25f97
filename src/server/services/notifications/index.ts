/**
 * What members are told: the messages inbox, the notify* writers (each honouring the member's
 * settings), notification settings, the daily email digest, and activities (recorded events the
 * feed job fans out to followers).
 *
 * Other folders reach this one only through this file (`.dependency-cruiser.cjs` checks it).
 */
export { announceActivities, forgetActivities, recordActivity } from './activities.ts';
export {
  emailSettingsSchema, getAccountEmail, saveAccountEmailSettings, sendDailyDigests,
  type AccountEmail,
} from './email-digest.ts';
export {
  countUnreadMessages, UNREAD_BADGE_LIMIT, unreadCountSql, listMessages, markAllMessagesRead, markMessageRead, type MessagePage,
} from './messages.ts';
export {
  getNotificationSettings, notificationSettingsInput, saveNotificationSettings, siteAllowsSql,
  type NotificationSettings,
} from './notification-settings.ts';
export {
  notifyComment, notifyCommentLiked, notifyFollowed, notifyProjectLiked, notifyProjectMade,
  notifyProjectStarred, notifyReply, notifyReportResolved,
} from './notifications.ts';
