/** Background → player (posted to the offscreen document, so audio bytes move without a copy). */
export type PlayerCommand =
  | { type: 'load'; readingId: string; startPart: number; seekInPart: number; positionBase: number }
  | { type: 'append'; readingId: string; part: number; bytes: ArrayBuffer }
  | { type: 'end-of-stream'; readingId: string }
  | { type: 'pause'; readingId: string }
  | { type: 'resume'; readingId: string }
  | { type: 'stop'; readingId: string };

/** Player → background. */
export type PlayerEvent =
  | { type: 'playing'; readingId: string }
  | { type: 'progress'; readingId: string; part: number; partTime: number; position: number }
  | { type: 'paused'; readingId: string }
  | { type: 'waiting'; readingId: string }
  | { type: 'ended'; readingId: string; position: number }
  | { type: 'error'; readingId: string; message: string };
