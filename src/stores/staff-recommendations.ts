import type { PinnedProject } from '../lib/contract/schemas/staff.ts';
import { say, warn } from '../lib/notice.ts';
import { createStaffList, moveItem, projectIdFrom } from './staff-list.ts';

type Change = { item: PinnedProject[] };
const take = ({ item }: Change) => item;

/** `/admin/recommendations`: pin a project (by id or address) at a place, unpin, move up and down. */
export function createPinEditor(pinned: PinnedProject[]) {
  const list = createStaffList(pinned);

  /** `rank` as typed: empty pins after the others. */
  function pin(text: string, rank: string): Promise<boolean> {
    const project = projectIdFrom(text);
    const place = rank.trim() ? Number(rank) : undefined;
    if (!project || (place !== undefined && (!Number.isInteger(place) || place < 1))) {
      list.tell(warn(project ? 'admin.rankInvalid' : 'admin.projectIdInvalid'));
      return Promise.resolve(false);
    }
    return list.run<Change>('recommend/pin', { project, ...(place ? { rank: place } : {}) }, take, say('admin.recommendations.pinned'));
  }

  function unpin(project: string): Promise<boolean> {
    return list.run<Change>('recommend/unpin', { project }, take, say('admin.recommendations.unpinned'));
  }

  function move(index: number, delta: number): Promise<boolean> {
    const projects = moveItem(
      list.$list.get().items.map((p) => p.id),
      index,
      delta,
    );
    return list.run<Change>('recommend/reorder', { projects }, take, say('admin.reordered'));
  }

  return { $list: list.$list, pin, unpin, move };
}
