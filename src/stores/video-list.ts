import { map } from 'nanostores';
import { apiCall } from '../lib/api-client.ts';
import { VIDEO_PAGE_SIZE } from '../lib/contract/video.ts';
import { fail, say, type Notice } from '../lib/notice.ts';
import type { Video } from '../lib/contract/schemas/videos.ts';
import { createConfirmAction } from './confirm-action.ts';

/** How often the owner's list asks again while a video is still being prepared. */
export const VIDEO_POLL_MS = 4000;

export interface VideoListState {
  videos: Video[];
  /** The video whose deletion is being confirmed. */
  deleting: Video | null;
  busy: boolean;
  notice: Notice | null;
}

/** Whether the server is still working on a video, so the list should ask again. */
export function isPending(video: Video): boolean {
  return video.status === 'uploading' || video.status === 'processing';
}

/**
 * Merges a fresh page of the list into what is shown: the server's order and states, keeping a
 * just-saved video the answer does not have yet (a list read before the save committed).
 */
export function mergeVideos(shown: readonly Video[], fresh: readonly Video[], keep: ReadonlySet<string>): Video[] {
  const freshIds = new Set(fresh.map((video) => video.id));
  return [...shown.filter((video) => keep.has(video.id) && !freshIds.has(video.id)), ...fresh];
}

interface VideoListDeps {
  list(body: { url: string; page: number; pageSize: number }): Promise<{ list: Video[] }>;
  remove(body: { id: string }): Promise<unknown>;
  edit(body: { id: string; projectId: string | null }): Promise<Video>;
}

const browserDeps: VideoListDeps = {
  list: (body) => apiCall('video/list', body),
  remove: (body) => apiCall('video/del', body),
  edit: (body) => apiCall('video/edit', body),
};

/**
 * The owner's videos on their page: a new upload joins at the top, the list asks the server again
 * every few seconds while any video is being prepared (so it turns ready or failed by itself),
 * and a video is deleted after confirming.
 */
export function createVideoList(init: { ownerUrl: string; videos: Video[]; page?: number }, deps: VideoListDeps = browserDeps, pollMs = VIDEO_POLL_MS) {
  const $videos = map<VideoListState>({ videos: init.videos, deleting: null, busy: false, notice: null });
  const get = () => $videos.get();
  const update = (patch: Partial<VideoListState>) => $videos.set({ ...get(), ...patch });
  // Saved here but maybe not yet in a list the server answers.
  const justSaved = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running = false;

  async function refresh(): Promise<void> {
    try {
      // The page the owner is on, as large as the page the server rendered (`?page=`).
      const { list } = await deps.list({ url: init.ownerUrl, page: init.page ?? 1, pageSize: VIDEO_PAGE_SIZE });
      for (const video of list) justSaved.delete(video.id);
      update({ videos: mergeVideos(get().videos, list, justSaved) });
    } catch {
      // A missed poll is retried with the next one; the list shown stays as it was.
    }
  }

  function schedule(): void {
    if (!running || timer || !get().videos.some(isPending)) return;
    timer = setTimeout(() => {
      timer = null;
      void refresh().then(schedule);
    }, pollMs);
  }

  function add(video: Video): void {
    justSaved.add(video.id);
    update({ videos: [video, ...get().videos.filter((shown) => shown.id !== video.id)] });
    schedule();
  }

  const deletion = createConfirmAction<Video>({
    act: (video) => deps.remove({ id: video.id }),
    done: (deleted) => {
      justSaved.delete(deleted.id);
      update({ videos: get().videos.filter((video) => video.id !== deleted.id), notice: say('video.list.deleted', { title: deleted.title }) });
    },
    failed: (error) => update({ notice: fail(error) }),
  });
  // One `busy` for the list: a video being linked to a project, or one being deleted.
  let linking = false;
  const busyNow = () => linking || deletion.$confirm.get().busy;
  deletion.$confirm.listen(({ asking }) => update({ deleting: asking, busy: busyNow() }));

  /** Links a video to one of the owner's projects (or unlinks it with null), after the upload. */
  async function linkProject(video: Video, projectId: string | null): Promise<void> {
    linking = true;
    update({ busy: true });
    try {
      const changed = await deps.edit({ id: video.id, projectId });
      linking = false;
      update({
        videos: get().videos.map((shown) => (shown.id === video.id ? changed : shown)),
        busy: busyNow(),
        notice: say(projectId ? 'video.list.linked' : 'video.list.unlinked', { title: video.title, project: changed.project?.title ?? '' }),
      });
    } catch (error) {
      linking = false;
      update({ busy: busyNow(), notice: fail(error) });
    }
  }

  /** Starts polling in the browser while videos are pending; returns how to stop. */
  function start(): () => void {
    running = true;
    schedule();
    return () => {
      running = false;
      if (timer) clearTimeout(timer);
      timer = null;
    };
  }

  return { $videos, add, refresh, askDelete: deletion.ask, cancelDelete: deletion.cancel, confirmDelete: deletion.confirm, linkProject, start };
}

export type VideoListStore = ReturnType<typeof createVideoList>;
