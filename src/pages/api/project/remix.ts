import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { z } from '../../../server/http/validation.ts';
import { remixProject } from '../../../server/services/projects/index.ts';
import { remixResultSchema } from '../../../lib/contract/schemas/makes.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  input: z.object({ id: z.string().trim().min(1).max(64) }),
  result: remixResultSchema,
  docs: {
    summary: 'Remix a project',
    description:
      'Creates a draft of yours from the project: its title, summary, description, tags and licence, with copies of its cover and files as your own uploads. Open it at `/create/project?draft=<id>`; publishing it records the project it is based on. A NoDerivatives licence refuses (`remix_not_allowed`).',
    tag: 'makes',
    errors: ['project_not_found', 'remix_not_allowed', 'too_many_drafts', 'rate_limited'],
    example: { id: EXAMPLE_IDS.project },
  },
  handler: ({ input, user }) => remixProject(user.id, input.id),
});
