import type { IslandMessages } from '../lib/island-messages.ts';
import type { Variant } from '../lib/paths.ts';
import { createVideoList } from '../stores/video-list.ts';
import { createVideoUpload } from '../stores/video-upload.ts';
import { I18nProvider } from './i18n.tsx';
import { useIslandStore } from './use-island-store.ts';
import { OwnerVideoList } from './video/OwnerVideoList.tsx';
import { UploadPanel } from './video/UploadPanel.tsx';
import type { Video } from '../lib/contract/schemas/videos.ts';

export interface VideoUploaderProps {
  /** The owner's custom URL (their list is asked for by it). */
  ownerUrl: string;
  /** The videos of the page shown (`?page=`), and its number: the list asks for the same page again. */
  videos: Video[];
  page: number;
  /** The owner's published projects, to link a video to. */
  projects: { id: string; title: string }[];
  locale: string;
  variant: Variant;
  messages: IslandMessages;
}

function Manager({ ownerUrl, videos, page, projects, locale, variant }: Omit<VideoUploaderProps, 'messages'>) {
  const list = useIslandStore(() => createVideoList({ ownerUrl, videos, page }));
  const upload = useIslandStore(() => createVideoUpload({ onSaved: list.add }));
  return (
    <>
      <UploadPanel upload={upload} projects={projects} locale={locale} />
      <OwnerVideoList list={list} locale={locale} variant={variant} projects={projects} />
    </>
  );
}

/** The owner's videos page: upload a video (resumable, with progress) and manage their videos. */
export default function VideoUploader({ messages, ...props }: VideoUploaderProps) {
  return (
    <I18nProvider locale={props.locale} messages={messages}>
      <Manager {...props} />
    </I18nProvider>
  );
}
