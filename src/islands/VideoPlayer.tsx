import '@vidstack/react/player/styles/default/theme.css';
import '@vidstack/react/player/styles/default/layouts/video.css';
import { useStore } from '@nanostores/react';
import { isVideoProvider, MediaPlayer, MediaProvider, Poster, Track, type MediaPlayerInstance, type MediaProviderAdapter } from '@vidstack/react';
import { DefaultVideoLayout, defaultLayoutIcons, type DefaultLayoutTranslations } from '@vidstack/react/player/layouts/default';
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { IslandMessages } from '../lib/island-messages.ts';
import { createVideoPlayer } from '../stores/video-player.ts';
import { I18nProvider } from './i18n.tsx';
import { useHydrated } from './use-hydrated.ts';
import { useIslandStore } from './use-island-store.ts';
import type { VideoPlayback } from '../lib/contract/schemas/videos.ts';

/** A captions file of the video (none today: the slot is there for when videos get them). */
export interface CaptionTrack {
  src: string;
  label: string;
  language: string;
}

export interface VideoPlayerProps {
  id: string;
  title: string;
  playback: VideoPlayback;
  /** The video's shape, so the player keeps its place before the file's first bytes arrive. */
  width: number | null;
  height: number | null;
  tracks?: CaptionTrack[];
  locale: string;
  messages: IslandMessages;
}

/** The player's words that our locale files translate (`video.player.<key>`); the rest stay the library's English. */
const PLAYER_WORDS: Partial<Record<keyof DefaultLayoutTranslations, string>> = {
  Play: 'play',
  Pause: 'pause',
  Replay: 'replay',
  Mute: 'mute',
  Unmute: 'unmute',
  Volume: 'volume',
  'Enter Fullscreen': 'enterFullscreen',
  'Exit Fullscreen': 'exitFullscreen',
  'Enter PiP': 'enterPip',
  'Exit PiP': 'exitPip',
  Settings: 'settings',
  Speed: 'speed',
  Normal: 'normal',
  Playback: 'playback',
  Captions: 'captions',
  'Closed-Captions On': 'captionsOn',
  'Closed-Captions Off': 'captionsOff',
  Off: 'off',
  Seek: 'seek',
  'Seek Forward': 'seekForward',
  'Seek Backward': 'seekBackward',
  Accessibility: 'accessibility',
  Audio: 'audio',
  Quality: 'quality',
  Auto: 'auto',
  Default: 'default',
  Loop: 'loop',
};

function Player({ id, title, playback, width, height, tracks = [] }: Omit<VideoPlayerProps, 'messages' | 'locale'>) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const player = useIslandStore(() => createVideoPlayer({ id, playback }));
  const { src, poster, status } = useStore(player.$player);
  const media = useRef<MediaPlayerInstance>(null);
  const translations = useMemo(() => Object.fromEntries(Object.entries(PLAYER_WORDS).map(([word, key]) => [word, t(`video.player.${key}`)])), [t]);
  const aspectRatio = width && height ? `${width} / ${height}` : '16 / 9';
  const moment = () => ({ time: media.current?.currentTime ?? 0, playing: media.current ? !media.current.paused : false });
  const resume = () => {
    const at = player.takeResume();
    if (!at || !media.current) return;
    media.current.currentTime = at.time;
    if (at.playing) void media.current.play().catch(() => undefined);
  };
  // A source that fails before its first byte fires `error` at its `<source>` element, which the
  // player library does not hear (it listens on the `<video>`): caught on the way down.
  const watchSources = (provider: MediaProviderAdapter) => {
    if (!isVideoProvider(provider)) return;
    const video = provider.video;
    video.addEventListener(
      'error',
      (event) => {
        if (event.target !== video) void player.recover(moment());
      },
      { capture: true },
    );
  };

  // Before the island is live (and without JavaScript) the browser's own player plays the file.
  if (!hydrated) {
    return (
      <video className="video-native" controls preload="none" playsInline poster={poster ?? undefined} src={src} style={{ aspectRatio }} aria-label={title}>
        {tracks.map((track) => (
          <track key={track.src} kind="captions" src={track.src} label={track.label} srcLang={track.language} />
        ))}
      </video>
    );
  }
  if (status !== 'ready') {
    return (
      <div className="video-state video-state-unavailable" role="alert" style={{ aspectRatio }} data-testid="video-unavailable">
        <h2>{t(status === 'gone' ? 'video.player.gone' : 'video.player.stopped')}</h2>
        <p>{t(status === 'gone' ? 'video.player.goneText' : 'video.player.stoppedText')}</p>
      </div>
    );
  }
  return (
    <MediaPlayer
      ref={media}
      className="video-player"
      title={title}
      src={{ src, type: 'video/mp4' }}
      playsInline
      load="visible"
      posterLoad="eager"
      crossOrigin={null}
      aspectRatio={aspectRatio}
      keyTarget="player"
      onError={() => void player.recover(moment())}
      onStalled={() => void player.checkStalled(moment())}
      onCanPlay={resume}
      onTimeUpdate={() => void player.noteProgress(moment())}
      onProviderSetup={watchSources}
    >
      <MediaProvider>
        {poster && <Poster className="vds-poster" src={poster} alt="" />}
        {tracks.map((track) => (
          <Track key={track.src} kind="captions" src={track.src} label={track.label} language={track.language} />
        ))}
      </MediaProvider>
      {/* No Google Cast button: it would load Google's sender script, which the page's policy refuses. */}
      <DefaultVideoLayout icons={defaultLayoutIcons} translations={translations} playbackRates={[0.5, 0.75, 1, 1.25, 1.5, 2]} slots={{ googleCastButton: null }} />
    </MediaPlayer>
  );
}

/**
 * The video player: the poster until played, keyboard control (space, arrows, `f`, `m`),
 * fullscreen, playback speed and a captions menu, over the browser's `<video>`. A source that
 * stops answering mid-play is loaded again where it stopped; a video hidden or deleted meanwhile
 * is said to be no longer available (`createVideoPlayer`).
 */
export default function VideoPlayer({ messages, locale, ...props }: VideoPlayerProps) {
  return (
    <I18nProvider locale={locale} messages={messages}>
      <Player {...props} />
    </I18nProvider>
  );
}
