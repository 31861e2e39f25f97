import { defineEndpoint } from '../../../../server/http/endpoint.ts';
import { pagingSchema, z } from '../../../../server/http/validation.ts';
import { listReports } from '../../../../server/services/staff/index.ts';
import { reportPageSchema } from '../../../../lib/contract/schemas/moderation.ts';

export const { GET, POST, ALL, contract } = defineEndpoint({
  auth: true,
  role: 'moderator',
  methods: ['GET', 'POST'],
  input: pagingSchema.extend({ status: z.enum(['open', 'closed']).optional() }),
  result: reportPageSchema,
  docs: {
    summary: 'The moderation queue',
    description: 'Open reports oldest first (the default), or closed ones most recently resolved first; each with the reported content as it is now, its reporter and the count of open reports on the same target.',
    tag: 'moderation',
    example: { status: 'open', page: 1, pageSize: 20 },
  },
  handler: ({ input }) => listReports(input),
});
