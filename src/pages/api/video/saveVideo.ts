import { VIDEO_TITLE_MAX } from '../../../lib/contract/video.ts';
import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { saveVideo } from '../../../server/services/videos.ts';

export const { POST, ALL } = defineEndpoint({
  auth: true,
  input: z.object({
    uploadToken: z.string().trim().min(1).max(100),
    title: z.string().trim().min(1).max(VIDEO_TITLE_MAX),
    projectId: z.string().trim().min(1).max(64).optional(),
  }),
  handler: ({ input, user }) => saveVideo(user.id, input),
});
