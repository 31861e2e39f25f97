/** The `documents` job: reads a project's BOM and pick-and-place files. */
import { z } from 'zod';
import { processDocumentsJob } from '../../services/eda/index.ts';
import type { JobDefinition } from '../queue.ts';

/** A documents job names the project whose files are read. */
const documentsPayload = z.object({ projectId: z.number().int().positive() });

declare module '../queue.ts' {
  interface JobPayloads {
    documents: z.infer<typeof documentsPayload>;
  }
}

/** Reads project `projectId`'s BOM and placements, two projects at a time. */
export const documentsJob: JobDefinition<'documents'> = {
  kind: 'documents',
  payload: documentsPayload,
  concurrency: 2,
  handle: ({ projectId }) => processDocumentsJob(projectId),
};
