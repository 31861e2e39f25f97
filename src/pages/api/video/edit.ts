import { VIDEO_TITLE_MAX } from '../../../lib/contract/video.ts';
import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { editVideo } from '../../../server/services/media/index.ts';
import { videoSchema } from '../../../lib/contract/schemas/videos.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  input: z.object({
    id: z.string().trim().min(1).max(64),
    title: z.string().trim().min(1).max(VIDEO_TITLE_MAX).optional(),
    // null unlinks the video from its project
    projectId: z.string().trim().min(1).max(64).nullable().optional(),
  }),
  result: videoSchema,
  docs: { summary: 'Rename a video or move it', description: '`projectId: null` unlinks it from its project.', tag: 'videos', errors: ['video_not_found', 'forbidden', 'project_not_found'], example: { id: EXAMPLE_IDS.video, title: 'Reflow in slow motion' } },
  handler: ({ input, user }) => editVideo(user.id, input),
});
