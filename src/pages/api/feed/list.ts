import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { pagingSchema } from '../../../server/http/validation.ts';
import { listFollowingFeed } from '../../../server/services/community/index.ts';
import { feedPageSchema } from '../../../lib/contract/schemas/follows.ts';

export const { GET, POST, ALL, contract } = defineEndpoint({
  auth: true,
  methods: ['GET', 'POST'],
  input: pagingSchema,
  result: feedPageSchema,
  docs: {
    summary: 'The signed-in member’s Following feed',
    description: 'New projects, build logs, versions and makes from the members, projects and tags they follow, newest first. `hasMore` says whether another page follows.',
    tag: 'follows',
    example: { page: 1, pageSize: 20 },
  },
  handler: ({ input, user, context }) => listFollowingFeed(user.id, input, context.locals.locale),
});
