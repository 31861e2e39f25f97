import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { saveLog, saveLogInputSchema } from '../../../server/services/community/index.ts';
import { logEntrySchema } from '../../../lib/contract/schemas/logs.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  input: saveLogInputSchema,
  result: logEntrySchema,
  docs: {
    summary: 'Post or edit a build log',
    description: 'The project’s owner posts its next log (`n` is given by the server: 1, 2, 3…, never reused), or edits log `n`. `content` is Markdown (images uploaded with purpose `image`), rendered and sanitized as a description is. Title 1–120 characters, content 1–20,000.',
    tag: 'logs',
    errors: ['log_owner_only', 'project_not_found', 'log_not_found', 'rate_limited'],
    example: { id: EXAMPLE_IDS.project, title: 'Reflowed the first board', content: 'The **ESP32** came up first time.\n\nNext: the USB-C power path.' },
  },
  handler: ({ input, user }) => saveLog(user.id, input),
});
