/**
 * The reading in the system's media controls (runs where the audio plays: Chrome's offscreen
 * document, Firefox's background page): title, site and artwork through the Media Session API, and
 * play, pause, stop, next and previous from media keys and the browser's or system's controls,
 * handed to the reader as actions.
 */
export type MediaAction = 'play' | 'pause' | 'stop' | 'nexttrack' | 'previoustrack';
export const MEDIA_ACTIONS: readonly MediaAction[] = ['play', 'pause', 'stop', 'nexttrack', 'previoustrack'];

export interface NowReading {
  title: string;
  /** The page's site ("example.com"), or the PDF's file name. */
  site: string;
}

export class MediaSessionLink {
  /** What each action does (kept so test builds can press them: no API presses a media key). */
  readonly handlers = new Map<MediaAction, () => void>();

  constructor(
    onAction: (action: MediaAction) => void,
    private readonly session: MediaSession | undefined = typeof navigator !== 'undefined' ? navigator.mediaSession : undefined,
    private readonly artwork = '/icon/128.png',
  ) {
    for (const action of MEDIA_ACTIONS) {
      const handler = () => onAction(action);
      this.handlers.set(action, handler);
      try {
        this.session?.setActionHandler(action, handler);
      } catch {
        // An action this browser does not know: the others still work.
      }
    }
  }

  show(now: NowReading): void {
    if (!this.session || typeof MediaMetadata === 'undefined') return;
    this.session.metadata = new MediaMetadata({ title: now.title || now.site, artist: now.site, album: 'trySasha Reader', artwork: [{ src: this.artwork, sizes: '128x128', type: 'image/png' }] });
  }

  state(state: MediaSessionPlaybackState): void {
    if (this.session) this.session.playbackState = state;
    if (state === 'none' && this.session) this.session.metadata = null;
  }

  /** Test builds: presses an action as a media key would. */
  press(action: MediaAction): void {
    this.handlers.get(action)?.();
  }
}
