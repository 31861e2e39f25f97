/**
 * The limits of a project's fields as `release/saveProject`, `editProject` and `savePreview` hold
 * to them, in one place for the form that checks them before sending and the server that checks
 * them again.
 */

/** The longest title, in characters, once spaces are folded. */
export const TITLE_MAX = 120;
/** The longest summary, in characters, once spaces are folded. */
export const SUMMARY_MAX = 300;
/** The longest Markdown description, in characters. */
export const DESCRIPTION_MAX = 100_000;
/** The most tags (staff tags and members' own together) a project carries. */
export const TAGS_MAX = 5;
/** The most attachments (design files) a project carries. */
export const ATTACHMENTS_MAX = 20;
/** The largest attachment in bytes; the upload of a larger one is refused with 413. */
export const ATTACHMENT_MAX_BYTES = 50 * 1024 * 1024;
/** The name of a project's first version when its author gives none. */
export const FIRST_VERSION_NAME = 'v1';
/** The longest version name, in characters. */
export const VERSION_NAME_MAX = 40;
/**
 * What a version name may hold: it starts with a letter or digit, then letters, digits, spaces
 * and the punctuation names are written with (`v1.1 – rev B`, `2024-03 (fix)`, `RC 2: rework`).
 * `validation.version_name` says so in words, on the form and from the API.
 */
export const VERSION_NAME_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N} ._+()\-–—:,/#&'’]*$/u;
/** The longest release notes of a version, in characters. */
export const VERSION_NOTES_MAX = 4000;
