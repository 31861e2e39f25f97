import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { pagingSchema, z } from '../../../server/http/validation.ts';
import { listVideos } from '../../../server/services/videos.ts';

export const { GET, POST, ALL } = defineEndpoint({
  methods: ['GET', 'POST'],
  input: pagingSchema.extend({
    url: z.string().trim().min(1).max(64).optional(),
    projectId: z.string().trim().min(1).max(64).optional(),
  }),
  handler: ({ input, user }) => listVideos(input, user?.id ?? null),
});
