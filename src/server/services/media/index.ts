/**
 * Files members upload: images and their variants, project attachments (their kinds guessed from
 * names and bytes) and videos (resumable uploads, processing, signed playback).
 *
 * Other folders reach this one only through this file (`.dependency-cruiser.cjs` checks it).
 */
export {
  downloadName, findAttachmentDownload, guessAttachmentKind, guessKinds, isKicadCompanion, syncProjectAttachments,
  type ResolvedAttachment, type StoredDownload,
} from './attachments.ts';
export {
  maxUploadRequestBytes, type IncomingFile, checkImageFile, copyUpload, findImageUpload,
  findOwnImageUpload, findUploadByUrl, IMAGE_MAX_BYTES, imageStorageKey, logUnqueuedVariants,
  queueImageVariants, safeFileName, sniffDesignText, storedImageWidth, storeUpload,
  uploadFormSchema,
} from './uploads.ts';
export { processVideoJob } from './video-processing.ts';
export {
  claimUploadToken, deleteAbandonedVideoUploads, isOpenUpload, isSavedUpload,
  issueVideoUploadToken, markUploadFinished, TUS_PATH, TusRefusal,
} from './video-uploads.ts';
export {
  deleteVideo, editVideo, getVideo, getVideoPlayback, listProjectVideos, listVideos,
  resolveVideoStream, resumePendingVideos, saveVideo, videoVisibleTo,
} from './videos.ts';
