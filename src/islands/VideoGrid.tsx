import type { IslandMessages } from '../lib/island-messages.ts';
import type { Variant } from '../lib/paths.ts';
import { I18nProvider } from './i18n.tsx';
import { VideoCard, type VideoCardData } from './video/VideoCard.tsx';

export interface VideoGridProps {
  videos: VideoCardData[];
  locale: string;
  variant: Variant;
  messages: IslandMessages;
  /** Posters of the first cards load at once (above the fold). */
  eagerCount?: number;
}

/**
 * Ready videos as cards (a member's page to visitors, a project page). Rendered on the server
 * only, without a client directive: the same cards as the owner's list, with no JavaScript.
 */
export default function VideoGrid({ videos, locale, variant, messages, eagerCount = 0 }: VideoGridProps) {
  return (
    <I18nProvider locale={locale} messages={messages}>
      <ul className="grid video-grid">
        {videos.map((video, index) => (
          <li key={video.id}>
            <VideoCard video={video} locale={locale} variant={variant} eager={index < eagerCount} />
          </li>
        ))}
      </ul>
    </I18nProvider>
  );
}
