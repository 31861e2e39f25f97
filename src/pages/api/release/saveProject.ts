import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { hitMemberRateLimitById } from '../../../server/services/core/index.ts';
import { saveProject, saveProjectSchema } from '../../../server/services/projects/index.ts';
import { saveResultSchema } from '../../../lib/contract/schemas/projects.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  input: saveProjectSchema,
  result: saveResultSchema,
  docs: { summary: 'Save a draft or publish', description: '`publish: false` stores a draft (new, or `draftId` updated) → `{ id: <draft id>, status: "draft" }`; `publish: true` publishes (consuming `draftId` if given) → `{ id: <project id>, status: "published" }`, as its version 1 named `version.name` (`v1` when not given).', tag: 'release', errors: ['email_not_verified', 'draft_not_found', 'too_many_drafts', 'upload_not_found', 'rate_limited'], example: { title: 'Soil moisture probe', summary: 'Capacitive, no corrosion', description: '## Build\n\nSolder the 555 first.', tags: [EXAMPLE_IDS.tag], licence: 'MIT', attachments: [], publish: false } },
  handler: async ({ input, user }) => {
    await hitMemberRateLimitById('release:user', user.id);
    return saveProject(user.id, input);
  },
});
