import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { hitMemberRateLimitById } from '../../../server/services/core/index.ts';
import { editProject, editProjectSchema } from '../../../server/services/projects/index.ts';
import { saveResultSchema } from '../../../lib/contract/schemas/projects.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  input: editProjectSchema,
  result: saveResultSchema,
  docs: { summary: 'Edit a published project', description: '`publish: true` updates the project; `publish: false` keeps it as it is and stores the edit as a draft linked to it. Published with `version: { name, notes }`, the edit is released as the project’s next version (a name the project already has, compared without case, refuses the whole edit with `version_name_taken`); published without it, the edit replaces the files of the latest version.', tag: 'release', errors: ['email_not_verified', 'project_not_found', 'forbidden', 'draft_not_found', 'too_many_drafts', 'upload_not_found', 'version_name_taken', 'rate_limited'], example: { id: EXAMPLE_IDS.project, title: 'Soil moisture probe v2', summary: 'Capacitive, no corrosion', description: '## What changed\n\nA thicker solder mask.', tags: [EXAMPLE_IDS.tag], licence: 'CERN-OHL-S-2.0', attachments: [], publish: true, version: { name: 'v2', notes: 'A thicker solder mask.' } } },
  handler: async ({ input, user }) => {
    await hitMemberRateLimitById('release:user', user.id);
    return editProject(user.id, input);
  },
});
