/** The `searchText` job: the stored search text of a tag's projects, written again with its names as they are now. */
import { z } from 'zod';
import { refreshTagSearchText } from '../../services/projects/index.ts';
import type { JobDefinition } from '../queue.ts';

/** A search text job names the tag whose projects are written again. */
const searchTextPayload = z.object({ tagId: z.number().int().positive() });

declare module '../queue.ts' {
  interface JobPayloads {
    searchText: z.infer<typeof searchTextPayload>;
  }
}

/** One tag at a time: a popular tag's projects are many, written a batch at a time. */
export const searchTextJob: JobDefinition<'searchText'> = {
  kind: 'searchText',
  payload: searchTextPayload,
  concurrency: 1,
  handle: async ({ tagId }) => {
    await refreshTagSearchText(tagId);
  },
};
