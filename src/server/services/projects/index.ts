/**
 * Projects: cards and lists, the detail page, publishing and drafts, previews, versions and their
 * diffs, remixes, tags (the staff tree and members' own), search, stars and likes, view counts.
 *
 * Other folders reach this one only through this file (`.dependency-cruiser.cjs` checks it).
 */
export { cardColumns, cardTags, shareImage, tagName, toCards, type ProjectCard, type ProjectPage } from './cards.ts';
export { findMemberProjectState, findProjectDetail, getProjectDetail, listRelatedProjects, type ProjectDetail } from './detail.ts';
export {
  countUserProjectStatus, countDrafts, deleteDraft, getDraft, getDraftStatus, listDrafts,
  storeDraft, type DraftItem,
} from './drafts.ts';
export {
  listCollectionProjects, listOwnProjects, listProjects, listProjectTitles, listStarredProjects,
  listUserProjects, type ProjectSort,
} from './list.ts';
export { rememberListReads } from './list-memory.ts';
export { createMemberTags } from './member-tags.ts';
export { getPreview, savePreview, savePreviewSchema } from './previews.ts';
export {
  deleteProject, editProject, editProjectSchema, loadFormSource, saveProject, saveProjectSchema,
} from './publishing.ts';
export { setProjectLike, setProjectStar } from './reactions.ts';
export { findDraftRemixSource, loadProjectLineage, remixProject, type RemixSource } from './remixes.ts';
export { highlightText, parseQuery, projectSearchText, refreshTagSearchText, searchProjects, type SearchSort } from './search.ts';
export {
  getTag, getTagDetail, listPopularTags, listTagTree, suggestTags, tagIdsWithChildren, tagNamesOf,
  type TagInfo, type TagNode,
} from './tags.ts';
export { COUNT_LIMIT } from './totals.ts';
export {
  diffVersions, findVersionFileDownload, ensureFirstVersion, listVersionFeedEntries, listVersions,
  listVersionsOf, versionDiffInputSchema, type VersionDiff, type VersionInfo,
} from './versions.ts';
export { countProjectView, recordProjectView, visitorKey } from './view-counts.ts';
