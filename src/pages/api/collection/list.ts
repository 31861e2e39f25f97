import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';
import { listMemberCollections } from '../../../server/services/community/index.ts';
import { collectionListInputSchema, collectionListResultSchema } from '../../../lib/contract/schemas/collections.ts';

export const { GET, POST, ALL, contract } = defineEndpoint({
  methods: ['GET', 'POST'],
  input: collectionListInputSchema,
  result: collectionListResultSchema,
  docs: {
    summary: 'A member’s collections',
    description: 'Most recently changed first, with their counts and covers. Public ones for everyone; their owner gets the private ones too.',
    tag: 'collections',
    session: 'optional',
    errors: ['user_not_found'],
    example: { url: EXAMPLE_IDS.user, project: EXAMPLE_IDS.project },
  },
  handler: ({ input, user }) => listMemberCollections(input.url, user?.id ?? null, { project: input.project }),
});
