/**
 * A project's electronics: boards rendered from its Gerbers, its BOM and placements, for the
 * project and for the versions waiting on them. The rendering itself runs in the job queue.
 *
 * Other folders reach this one only through this file (`.dependency-cruiser.cjs` checks it).
 */
export {
  boardKeys, boardsVersionsShow, currentBoard, exportProjectBom, exportProjectCpl, findBoardGerbers, getEdaDetail, listProjectBoards,
  planProjectEda, refreshBoards, resumePendingEda, startProjectEda, streamFabricationZip, type BoardGerbers,
} from './boards.ts';
export { processBoardJob, processDocumentsJob } from './processing.ts';
export { processDesignSourceJob, queueWaitingSources, refreshDesignSources } from './source-processing.ts';
export { currentSource, sourceKeys } from './design-sources.ts';
export { copyBoardIntoVersions, versionBoardOf } from './version-boards.ts';
export { readSourceSummary, type CheckCounts, type SourceSummary } from './source-summary.ts';
