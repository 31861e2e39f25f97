import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { siteOrigin } from '../../../server/services/sso-links.ts';
import { issueVideoUploadToken } from '../../../server/services/video-uploads.ts';

export const { POST, ALL } = defineEndpoint({
  auth: true,
  input: z.object({
    name: z.string().trim().min(1).max(255),
    // The declared size is checked against the limit by the service (413 `too_large`), not here.
    size: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    mime: z.string().trim().min(1).max(100),
  }),
  handler: ({ input, user, context }) => issueVideoUploadToken(user.id, input, siteOrigin(context.url)),
});

