/**
 * A project's KiCad design source in brief, for the project page: how far reading it has got
 * (its owner is told at once, whatever the state) and, once read, what its design checks found.
 */
import { asc, sql } from 'drizzle-orm';
import type { SourceErrorKey, SourceStage, SourceStatus } from '../../../lib/contract/eda.ts';
import { getDb } from '../../db/client.ts';
import { designSources } from '../../db/schema/index.ts';
import { currentSource } from './design-sources.ts';

/** How many errors and warnings a check found. */
export interface CheckCounts {
  errors: number;
  warnings: number;
}

export interface SourceSummary {
  status: SourceStatus;
  errorKey?: SourceErrorKey;
  /** The KiCad release that saved the files, when known (`too_new` names it). */
  kicadVersion: string | null;
  /** The stages that failed while the others went through. */
  problems: Array<{ stage: SourceStage; errorKey: SourceErrorKey }>;
  /** How many schematic sheets it has (none until it is read). */
  sheets: number;
  /** Null when the check was not run (or could not be). */
  drc: CheckCounts | null;
  erc: CheckCounts | null;
}

const counts = (errors: number | null, warnings: number | null): CheckCounts | null =>
  errors === null || warnings === null ? null : { errors, warnings };

/**
 * The project's current design source in brief: for its owner in any state, for everyone else
 * only once it is read (`ready`). Null when it has none (or none a reader may see yet). Reads the
 * checks' counts only, never their items.
 */
export async function readSourceSummary(projectId: number, viewerIsOwner: boolean): Promise<SourceSummary | null> {
  const [row] = await getDb()
    .select({
      status: designSources.status,
      errorKey: designSources.errorKey,
      kicadVersion: designSources.kicadVersion,
      problems: designSources.problems,
      sheets: sql<number>`jsonb_array_length(${designSources.sheets})`,
      drcErrors: sql<number | null>`(${designSources.drc} ->> 'errors')::int`,
      drcWarnings: sql<number | null>`(${designSources.drc} ->> 'warnings')::int`,
      ercErrors: sql<number | null>`(${designSources.erc} ->> 'errors')::int`,
      ercWarnings: sql<number | null>`(${designSources.erc} ->> 'warnings')::int`,
    })
    .from(designSources)
    .where(currentSource(projectId))
    .orderBy(asc(designSources.id))
    .limit(1);
  if (!row || (!viewerIsOwner && row.status !== 'ready')) return null;
  return {
    status: row.status,
    ...(row.status === 'failed' ? { errorKey: row.errorKey ?? 'render_failed' } : {}),
    kicadVersion: row.kicadVersion,
    problems: row.problems,
    sheets: row.status === 'ready' ? Number(row.sheets) : 0,
    drc: counts(row.drcErrors, row.drcWarnings),
    erc: counts(row.ercErrors, row.ercWarnings),
  };
}
