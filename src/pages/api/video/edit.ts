import { VIDEO_TITLE_MAX } from '../../../lib/contract/video.ts';
import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { editVideo } from '../../../server/services/videos.ts';

export const { POST, ALL } = defineEndpoint({
  auth: true,
  input: z.object({
    id: z.string().trim().min(1).max(64),
    title: z.string().trim().min(1).max(VIDEO_TITLE_MAX).optional(),
    // null unlinks the video from its project
    projectId: z.string().trim().min(1).max(64).nullable().optional(),
  }),
  handler: ({ input, user }) => editVideo(user.id, input),
});
