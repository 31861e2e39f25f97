/** What the bench's modules share to report timings. */

/** The `p`th percentile (nearest rank) of ascending `sorted`; 0 for none. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** A figure against its target, as the reports write it. */
export const metOrMissed = (met: boolean): string => (met ? 'met' : 'missed');
