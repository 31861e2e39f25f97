/** The `kicadSource` job: reads one KiCad design source of a project with `kicad-cli`. */
import { z } from 'zod';
import { processDesignSourceJob } from '../../services/eda/index.ts';
import type { JobDefinition } from '../queue.ts';

/** A source job names the `design_sources` row to read. */
const kicadSourcePayload = z.object({ sourceId: z.number().int().positive() });

declare module '../queue.ts' {
  interface JobPayloads {
    kicadSource: z.infer<typeof kicadSourcePayload>;
  }
}

/**
 * Reads design source `sourceId`. One at a time: each stage is a `kicad-cli` process of up to
 * 3 GB of address space and a CPU's worth of time, and a worker shares its machine with boards
 * and videos. A crash is retried once by the queue; the handler fails a source on its third start.
 */
export const kicadSourceJob: JobDefinition<'kicadSource'> = {
  kind: 'kicadSource',
  payload: kicadSourcePayload,
  concurrency: 1,
  handle: ({ sourceId }) => processDesignSourceJob(sourceId),
};
