import { VIDEO_TITLE_MAX } from '../../../lib/contract/video.ts';
import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { saveVideo } from '../../../server/services/media/index.ts';
import { videoSchema } from '../../../lib/contract/schemas/videos.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  input: z.object({
    uploadToken: z.string().trim().min(1).max(100),
    title: z.string().trim().min(1).max(VIDEO_TITLE_MAX),
    projectId: z.string().trim().min(1).max(64).optional(),
  }),
  result: videoSchema,
  docs: { summary: 'Save an uploaded video', description: 'After its bytes arrived through tus: the video is queued for processing and listed.', tag: 'videos', errors: ['upload_not_found', 'upload_incomplete', 'upload_used', 'project_not_found'], example: { uploadToken: EXAMPLE_IDS.videoUploadToken, title: 'Reflow in slow motion', projectId: EXAMPLE_IDS.project } },
  handler: ({ input, user }) => saveVideo(user.id, input),
});
