import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { siteOrigin } from '../../../server/lib/sso-links.ts';
import { issueVideoUploadToken } from '../../../server/services/media/index.ts';
import { videoUploadTicketSchema } from '../../../lib/contract/schemas/videos.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  input: z.object({
    name: z.string().trim().min(1).max(255),
    // The declared size is checked against the limit by the service (413 `too_large`), not here.
    size: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    mime: z.string().trim().min(1).max(100),
  }),
  result: videoUploadTicketSchema,
  docs: { summary: 'Start a video upload', description: 'A token and the tus address to upload the bytes to (`POST /api/video/upload` with `uploadToken` in `Upload-Metadata`); then `video/saveVideo`.', tag: 'videos', errors: ['too_large', 'unsupported_type', 'rate_limited'], example: { name: 'reflow.mp4', size: 1048576, mime: 'video/mp4' } },
  handler: ({ input, user, context }) => issueVideoUploadToken(user.id, input, siteOrigin(context.url)),
});

