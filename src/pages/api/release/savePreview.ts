import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { hitRateLimit } from '../../../server/services/core/index.ts';
import { savePreview, savePreviewSchema } from '../../../server/services/projects/index.ts';
import { previewLinkSchema } from '../../../lib/contract/schemas/projects.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  input: savePreviewSchema,
  result: previewLinkSchema,
  docs: { summary: 'Save a preview', description: 'The form’s content as a preview with a link to share (valid 30 days).', tag: 'release', errors: ['upload_not_found', 'rate_limited'], example: { title: 'Soil moisture probe', summary: 'Capacitive, no corrosion', description: 'Work in progress.', tags: [EXAMPLE_IDS.tag], licence: 'MIT', attachments: [] } },
  handler: async ({ input, user }) => {
    await hitRateLimit('preview:user', user.id);
    return savePreview(user.id, input);
  },
});
