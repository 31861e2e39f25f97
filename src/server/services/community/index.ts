/**
 * Members among themselves: public member pages, follows and the Following feed, Atom feeds,
 * build logs, makes, members' collections and comments.
 *
 * Other folders reach this one only through this file (`.dependency-cruiser.cjs` checks it).
 */
export { listFeed, listProjectFeed, type FeedSource, type FoundFeedSource } from './atom-feeds.ts';
export {
  COMMENT_MAX_CHARACTERS, commentContentSchema, commentIdSchema, commentSortSchema,
  commentVisibleTo, deleteComment, getCommentThread, likeComment, listComments, recountComments,
  replyToComment, submitComment, type CommentItem, type CommentThread,
} from './comments.ts';
export { fanOutActivities, hasPendingActivities, listFollowingFeed } from './following-feed.ts';
export { countFollowing, getFollowState, setFollow, type FollowState } from './follows.ts';
export {
  deleteLog, deleteLogInputSchema, getLogView, listLogs, listLogsInputSchema, logNumberSchema,
  recountLogs, saveLog, saveLogInputSchema, type LogEntry,
} from './logs.ts';
export {
  deleteMake, listMemberMakes, listProjectMakes, MAKE_IMAGES_MAX, MAKE_NOTE_MAX_CHARACTERS,
  makeSubmitSchema, recountMakes, submitMake, type MakeItem,
} from './makes.ts';
export {
  addToMemberCollection, deleteMemberCollection, getMemberCollection, getMemberCollectionByUrl,
  listCollectionsOf, listMemberCollections, listOwnCollectionEntries, moveInMemberCollection,
  removeFromMemberCollection, saveMemberCollection,
} from './member-collections.ts';
export { findUserByUrl, getPublicUser, type PublicUser } from './members.ts';
