import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';
import { getMemberCollectionByUrl } from '../../../server/services/community/index.ts';
import { collectionGetInputSchema, collectionPageSchema } from '../../../lib/contract/schemas/collections.ts';

export const { GET, POST, ALL, contract } = defineEndpoint({
  methods: ['GET', 'POST'],
  input: collectionGetInputSchema,
  result: collectionPageSchema,
  docs: {
    summary: 'One collection and a page of its projects',
    description: 'In the owner’s order. Someone else’s private collection answers `collection_not_found`, as one that does not exist.',
    tag: 'collections',
    session: 'optional',
    errors: ['user_not_found', 'collection_not_found'],
    example: { url: EXAMPLE_IDS.user, slug: EXAMPLE_IDS.memberCollection, page: 1, pageSize: 24 },
  },
  handler: ({ input, user, context }) => getMemberCollectionByUrl(input.url, input.slug, user?.id ?? null, input, context.locals.locale),
});
