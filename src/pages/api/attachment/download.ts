import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { isCrawler } from '../../../lib/user-agent.ts';
import { downloadAttachment } from '../../../server/services/attachments.ts';

/** `GET /api/attachment/download?id=`: the file as a download; each download is counted. */
export const { GET, ALL } = defineEndpoint({
  methods: ['GET'],
  input: z.object({ id: z.string().trim().min(1).max(64) }),
  handler: ({ input, user, context }) =>
    downloadAttachment(input.id, user?.id ?? null, !isCrawler(context.request.headers.get('user-agent'))),
});
