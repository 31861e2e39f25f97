/**
 * Limits of members' collections, shared by the server (the `collection/*` schemas and service)
 * and the islands (field lengths before sending). Pure: no server imports.
 */

/** Collections one member may have. */
export const MAX_COLLECTIONS = 100;
/** Projects one collection may hold. */
export const MAX_COLLECTION_PROJECTS = 500;
export const COLLECTION_TITLE_MAX = 80;
export const COLLECTION_DESCRIPTION_MAX = 1000;
/** Projects on one page of a collection. */
export const COLLECTION_PAGE_SIZE = 24;
