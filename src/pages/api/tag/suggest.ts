import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { clientIp } from '../../../server/http/request-meta.ts';
import { z } from '../../../server/http/validation.ts';
import { hitRateLimit } from '../../../server/services/core/index.ts';
import { suggestTags } from '../../../server/services/projects/index.ts';
import { tagSuggestResultSchema } from '../../../lib/contract/schemas/projects.ts';
import { TAG_NAME_MAX } from '../../../lib/tag-names.ts';

export const { GET, POST, ALL, contract } = defineEndpoint({
  methods: ['GET', 'POST'],
  input: z.object({
    // Control characters (NUL among them, which PostgreSQL's text refuses) never match a tag.
    q: z
      .string()
      .transform((value) => value.replace(/[\u0000-\u001F\u007F]/g, '').trim())
      .pipe(z.string().min(1).max(TAG_NAME_MAX)),
    limit: z.coerce.number().int().min(1).max(20).default(8),
  }),
  result: tagSuggestResultSchema,
  docs: {
    summary: 'Tags matching what an author types',
    description:
      'Tags whose English or Chinese name, slug or former (merged) slug contains `q`, in either language: a Chinese query finds a tag by its Chinese name and answers both names. Exact matches first, then names starting with `q`, then the rest; more-used tags first among equals.',
    tag: 'tags',
    errors: ['rate_limited'],
    example: { q: 'esp', limit: 5 },
  },
  handler: async ({ input, context }) => {
    await hitRateLimit('tag:suggest:ip', clientIp(context));
    return suggestTags(input.q, input.limit);
  },
});
