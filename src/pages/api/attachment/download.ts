import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { isCrawler } from '../../../lib/user-agent.ts';
import { downloadAttachment } from '../../../server/http/downloads.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';

/** `GET /api/attachment/download?id=`: the file as a download; each download is counted. */
export const { GET, ALL, contract } = defineEndpoint({
  methods: ['GET'],
  input: z.object({ id: z.string().trim().min(1).max(64) }),
  result: z.never(),
  docs: { summary: 'Download an attachment', description: 'The file itself, as a download; each download by a browser is counted. The owner may also download attachments of a project not published.', tag: 'projects', session: 'optional', errors: ['not_found'], example: { id: EXAMPLE_IDS.attachment }, file: { contentType: 'application/octet-stream', description: 'The attachment’s bytes with its own content type and a `Content-Disposition: attachment` name.' } },
  handler: ({ input, user, context }) =>
    downloadAttachment(input.id, user?.id ?? null, !isCrawler(context.request.headers.get('user-agent'))),
});
