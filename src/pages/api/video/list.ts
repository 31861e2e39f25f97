import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { pagingSchema, z } from '../../../server/http/validation.ts';
import { listVideos } from '../../../server/services/media/index.ts';
import { videoPageSchema } from '../../../lib/contract/schemas/videos.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';

export const { GET, POST, ALL, contract } = defineEndpoint({
  methods: ['GET', 'POST'],
  input: pagingSchema.extend({
    url: z.string().trim().min(1).max(64).optional(),
    projectId: z.string().trim().min(1).max(64).optional(),
  }),
  result: videoPageSchema,
  docs: { summary: 'Videos of a member or a project', description: 'Newest first; owners also see their unfinished ones.', tag: 'videos', session: 'optional', errors: ['user_not_found', 'project_not_found'], example: { url: EXAMPLE_IDS.user, page: 1, pageSize: 24 } },
  handler: ({ input, user }) => listVideos(input, user?.id ?? null),
});
