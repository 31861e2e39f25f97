import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { listLogs, listLogsInputSchema } from '../../../server/services/community/index.ts';
import { logPageSchema } from '../../../lib/contract/schemas/logs.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';

export const { GET, POST, ALL, contract } = defineEndpoint({
  methods: ['GET', 'POST'],
  input: listLogsInputSchema,
  result: logPageSchema,
  docs: { summary: 'Build logs of a project', description: 'A page of the project’s logs, newest first.', tag: 'logs', session: 'optional', errors: ['project_not_found'], example: { id: EXAMPLE_IDS.project, page: 1, pageSize: 10 } },
  handler: ({ input, user }) => listLogs(input, user?.id ?? null),
});
