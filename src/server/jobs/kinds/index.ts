/**
 * Every job kind, one file each: what its jobs carry (a zod schema, which also types `sendJob`
 * for the kind), how many run at once and what runs them. Their queues and retry limits are
 * `JOBS` in `../queue.ts`. `startJobWorkers` works every kind listed here.
 */
import type { JobDefinition, JobKind } from '../queue.ts';
import { boardJob } from './board.ts';
import { digestJob } from './digest.ts';
import { documentsJob } from './documents.ts';
import { feedJob } from './feed.ts';
import { imageVariantsJob } from './image-variants.ts';
import { kicadSourceJob } from './kicad-source.ts';
import { mailJob } from './mail.ts';
import { searchTextJob } from './search-text.ts';
import { videoJob } from './video.ts';

/** Each job kind's definition, by kind: a kind of `JOBS` left out here does not compile. */
export const JOB_KINDS: { [K in JobKind]: JobDefinition<K> } = {
  board: boardJob,
  kicadSource: kicadSourceJob,
  documents: documentsJob,
  video: videoJob,
  imageVariants: imageVariantsJob,
  mail: mailJob,
  digest: digestJob,
  feed: feedJob,
  searchText: searchTextJob,
};
