import { defineEndpoint } from '../../../../server/http/endpoint.ts';
import { pagingSchema } from '../../../../server/http/validation.ts';
import { listAudit } from '../../../../server/services/staff/index.ts';
import { auditPageSchema } from '../../../../lib/contract/schemas/moderation.ts';

export const { GET, POST, ALL, contract } = defineEndpoint({
  auth: true,
  role: 'admin',
  methods: ['GET', 'POST'],
  input: pagingSchema,
  result: auditPageSchema,
  docs: { summary: 'The audit log: every staff action, newest first', tag: 'moderation', example: { page: 1, pageSize: 20 } },
  handler: ({ input }) => listAudit(input),
});
