/** The speeds offered (pitch kept). Apart from `storage/settings.ts`, so the content script's player carries no storage code. */
export const PLAYBACK_RATES = [0.5, 0.75, 1, 1.25, 1.5, 1.75, 2, 2.5, 3] as const;

/** Sets the element's speed, pitch kept, and volume. */
export function setPlayback(audio: HTMLMediaElement, rate: number, volume: number): void {
  // The browser keeps the pitch while the rate changes (preservesPitch is on by default; set it anyway).
  audio.preservesPitch = true;
  audio.defaultPlaybackRate = rate;
  audio.playbackRate = rate;
  audio.volume = volume;
}
