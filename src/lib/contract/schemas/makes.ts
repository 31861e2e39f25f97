import { count, isoDateTime, pageOf, projectRefSchema, serialId, userRefSchema, z } from './common.ts';

export const makeImageSchema = z
  .object({ url: z.string(), width: count.nullable().meta({ description: 'The stored picture’s width in pixels; null when unknown.' }) })
  .meta({ id: 'MakeImage' });

export const makeItemSchema = z
  .object({
    id: serialId,
    project: projectRefSchema.meta({ description: 'The project that was built.' }),
    maker: userRefSchema,
    content: z.string().meta({ description: 'The maker’s note, plain text (may be empty).' }),
    link: z
      .object({ href: z.string(), project: projectRefSchema.nullable().meta({ description: 'Set when the link is a project of this site.' }) })
      .nullable()
      .meta({ description: 'The maker’s own variant: an http(s) address or a project of this site.' }),
    images: z.array(makeImageSchema).min(1),
    createdAt: isoDateTime,
    hidden: z.boolean().meta({ description: 'Hidden by staff after a report: only its maker and staff see it.' }),
    canDelete: z.boolean(),
  })
  .meta({ id: 'MakeItem', description: 'A member’s build of a project (“I built this”).' });

export const makePageSchema = pageOf(makeItemSchema).meta({ id: 'MakePage' });

export const makeDeletedSchema = z.object({ id: serialId, makeCount: count });

/** `project/remix`: the remixer's new draft, opened at `/create/project?draft=<id>`. */
export const remixResultSchema = z.object({ id: z.string().meta({ description: 'The new draft’s id.' }) });
