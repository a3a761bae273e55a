/** The speeds offered (pitch kept). Apart from `storage/settings.ts`, so the content script's player carries no storage code. */
export const PLAYBACK_RATES = [0.5, 0.75, 1, 1.25, 1.5, 1.75, 2, 2.5, 3] as const;
