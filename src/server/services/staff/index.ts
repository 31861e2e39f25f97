/**
 * Staff tools: the audited staff write, banners, collections, recommendations, the tag tree, and
 * reports with their moderation.
 *
 * Other folders reach this one only through this file (`.dependency-cruiser.cjs` checks it).
 */
export { deleteBanner, listStaffBanners, saveBanner } from './banners.ts';
export {
  addProjectsToCollection, addProjectToCollection, deleteCollection, listStaffCollections,
  removeProjectFromCollection, reorderCollection, saveCollection,
} from './collections.ts';
export {
  listAudit, listReports, reportInputSchema, resolveInputSchema, resolveReport, restoreContent,
  restoreInputSchema, submitReport,
} from './moderation.ts';
export { listPinnedProjects, pinProject, reorderPinned, unpinProject } from './recommendations.ts';
export { OPERATOR, staffMember } from './staff-writes.ts';
export { createTag, listStaffTags, mergeTags, moveTag, renameTag, tagForAlias } from './tags.ts';
