import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { makeSubmitSchema, submitMake } from '../../../server/services/community/index.ts';
import { makeItemSchema } from '../../../lib/contract/schemas/makes.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  input: makeSubmitSchema,
  result: makeItemSchema,
  docs: {
    summary: 'Post a make (“I built this”)',
    description:
      '`images`: 1 to 6 image uploads of yours (`POST /api/upload` with purpose `image`), by id or `/files/…` URL, none used by another make. `content`: a note of up to 2,000 characters. `link`: your own variant, an http(s) address or a project of this site (`/d-{id}`). The project’s author gets a `make` message.',
    tag: 'makes',
    errors: ['project_not_found', 'too_many_images', 'email_not_verified', 'rate_limited'],
    example: { id: EXAMPLE_IDS.project, content: 'Built it with a 3D-printed case.', images: [EXAMPLE_IDS.makeImage], link: 'https://example.com/my-build' },
  },
  handler: ({ input, user }) => submitMake(user.id, input),
});
