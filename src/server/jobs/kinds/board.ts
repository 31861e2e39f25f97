/** The `board` job: renders one board of a project from its Gerber files. */
import { z } from 'zod';
import { processBoardJob } from '../../services/eda/index.ts';
import type { JobDefinition } from '../queue.ts';

/** A board job names the `boards` row to render. */
const boardPayload = z.object({ boardId: z.number().int().positive() });

declare module '../queue.ts' {
  interface JobPayloads {
    board: z.infer<typeof boardPayload>;
  }
}

/**
 * Renders board `boardId` (each in its own worker thread). One at a time unless the server's
 * `BOARD_CONCURRENCY` asks for more (`startJobWorkers`). A crash is retried once by the queue;
 * the handler itself fails a board on its third start.
 */
export const boardJob: JobDefinition<'board'> = {
  kind: 'board',
  payload: boardPayload,
  concurrency: 1,
  handle: ({ boardId }) => processBoardJob(boardId),
};
