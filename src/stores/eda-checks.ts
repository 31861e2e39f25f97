import type { CheckItem } from '../lib/contract/schemas/eda.ts';

/** At most this many items of one kind are listed on the page: the rest are counted (KiCad lists them all). */
export const ITEMS_PER_GROUP = 50;

/** The items of a design check of one kind (`clearance`, `pin_not_connected`, …). */
export interface CheckGroup {
  type: string;
  /** `error` when any of its items is one. */
  severity: CheckItem['severity'];
  /** How many items of this kind the check found. */
  count: number;
  /** The first `ITEMS_PER_GROUP` of them, errors first, then by sheet and from top left. */
  items: CheckItem[];
  /** KiCad's own words for the first item: the group's name when the kind has no translation. */
  description: string;
}

const bySeverity = (item: CheckItem) => (item.severity === 'error' ? 0 : 1);

function compareItems(a: CheckItem, b: CheckItem): number {
  return bySeverity(a) - bySeverity(b) || (a.sheet ?? 0) - (b.sheet ?? 0) || (a.yMm ?? Infinity) - (b.yMm ?? Infinity) || (a.xMm ?? Infinity) - (b.xMm ?? Infinity);
}

/**
 * A check's items grouped by kind: kinds with errors first, then the most frequent, then by name,
 * each group's items errors first and in reading order.
 */
export function groupCheckItems(items: readonly CheckItem[], limit = ITEMS_PER_GROUP): CheckGroup[] {
  const groups = new Map<string, CheckItem[]>();
  for (const item of items) {
    const group = groups.get(item.type);
    if (group) group.push(item);
    else groups.set(item.type, [item]);
  }
  return [...groups]
    .map(([type, members]): CheckGroup => {
      const sorted = [...members].sort(compareItems);
      return { type, severity: sorted[0]!.severity, count: members.length, items: sorted.slice(0, limit), description: sorted[0]!.description };
    })
    .sort((a, b) => bySeverity(a.items[0]!) - bySeverity(b.items[0]!) || b.count - a.count || a.type.localeCompare(b.type));
}
