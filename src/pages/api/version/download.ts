import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { isCrawler } from '../../../lib/user-agent.ts';
import { downloadVersionFile } from '../../../server/http/downloads.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';

/** `GET /api/version/download?id=`: a file of a version, even one the project has dropped since; counted. */
export const { GET, ALL, contract } = defineEndpoint({
  methods: ['GET'],
  input: z.object({ id: z.string().trim().min(1).max(64) }),
  result: z.never(),
  docs: { summary: 'Download a version’s file', description: 'A file a version was published with, as a download, even after the project dropped it; each download by a browser is counted.', tag: 'versions', session: 'optional', errors: ['not_found'], example: { id: EXAMPLE_IDS.versionFile }, file: { contentType: 'application/octet-stream', description: 'The file’s bytes with its own content type and a `Content-Disposition: attachment` name.' } },
  handler: ({ input, user, context }) => downloadVersionFile(input.id, user?.id ?? null, !isCrawler(context.request.headers.get('user-agent'))),
});
