import { count, isoDateTime, pageOf, userRefSchema, z } from './common.ts';

/** One build log of a project, as its list, its page and `log/save` answer it. */
export const logEntrySchema = z
  .object({
    n: z.number().int().positive().meta({ description: 'The log’s number in its project (1, 2, 3…, never given again).' }),
    title: z.string(),
    content: z.string().meta({ description: 'The Markdown its author wrote.' }),
    contentHtml: z.string().meta({ description: 'The Markdown rendered and sanitized, as a project’s description is.' }),
    excerpt: z.string().meta({ description: 'The start of its plain text, for lists.' }),
    author: userRefSchema,
    commentCount: count,
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    path: z.string().meta({ description: 'Its page: `/d-{id}/log/{n}`.' }),
    hidden: z.boolean().meta({ description: 'Hidden by staff: only its author and staff see it.' }),
  })
  .meta({ id: 'LogEntry' });

export const logPageSchema = pageOf(logEntrySchema).meta({ id: 'LogPage', description: 'A page of a project’s build logs, newest first.' });

export const logDeletedSchema = z.object({ n: z.number().int().positive() });

export type LogEntry = z.infer<typeof logEntrySchema>;
