/**
 * The video contract shared by the server, the API and the islands (`video/*` endpoints, the
 * player page, the upload island). Field names are part of the public API: apps and scripts
 * upload and list videos with them.
 */


/** Where a video is: bytes arriving (tus), being probed and prepared for the web, playable, or refused. */
export const VIDEO_STATUSES = ['uploading', 'processing', 'ready', 'failed'] as const;
export type VideoStatus = (typeof VIDEO_STATUSES)[number];

/**
 * Why a video failed, in words its owner can act on (`video.errors.<key>` in both locales).
 */
export const VIDEO_ERROR_KEYS = [
  'not_video', // the file is no video ffprobe can read (a renamed text file, an image)
  'truncated', // the file ends before its video does (an upload cut short, a damaged file)
  'too_long', // longer than VIDEO_MAX_SECONDS
  'too_large', // more bytes, or more pixels, than allowed
  'no_video_stream', // audio only
  'transcode_failed', // ffmpeg could not convert it
  'timed_out', // processing took longer than its limit
] as const;
export type VideoErrorKey = (typeof VIDEO_ERROR_KEYS)[number];

/** The longest title a video may have: the upload form, `video/saveVideo` and `video/edit` all hold to it. */
export const VIDEO_TITLE_MAX = 120;
/** Videos on one page of a member's `/user/{url}/video` (the page, its loader and the owner's list store). */
export const VIDEO_PAGE_SIZE = 24;

/** Declared upload sizes above this are refused by `video/getVideoToken`. */
export const VIDEO_MAX_BYTES = 1024 * 1024 * 1024;
/** Videos longer than this are refused when probed. */
export const VIDEO_MAX_SECONDS = 20 * 60;
/** Types `video/getVideoToken` accepts (what phones and cameras record; checked again by content). */
export const VIDEO_MIMES = ['video/mp4', 'video/quicktime', 'video/webm', 'video/x-matroska', 'video/x-m4v', 'video/3gpp'] as const;

/**
 * How soon a video staff hide (or its owner deletes) stops playing for everyone, whatever the
 * storage: the longest anything answered for a playback address is trusted without asking the
 * site again. The browser keeps a file response this long at most (`max-age`), a bucket's
 * presigned address it is sent to lives this long, a response the site is still sending is
 * checked again this often, and the site's player asks about its address this often while it
 * plays (a bucket's response in progress is beyond the site's reach). Five minutes: soon enough
 * for moderation, and long enough that a player on a slow line is seldom sent back to the site.
 */
export const HIDDEN_TAKES_EFFECT_SECONDS = 300;
