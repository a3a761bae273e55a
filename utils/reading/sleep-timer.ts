/**
 * The sleep timer's arithmetic, as pure functions: which part is the first that would start after the
 * timer is up (it is not requested), and how long until the sentence being read ends (the reading
 * pauses then). The timer itself is `sleep.ts`.
 */
import type { Part } from '../text/parts';

/** What the arithmetic needs of a reading: its parts and how long each one plays. */
export interface TimedParts {
  readonly parts: readonly Part[];
  partDuration(k: number): number;
}

/** Where the player is: the part, the seconds into it, and the speed. */
export interface PlayPoint {
  part: number;
  partTime: number;
  rate: number;
}

/**
 * A part due to start less than this before the timer is up is held back too. Where the audio really is
 * can be behind the reckoning by a fraction of a second (the player's position reports, a short wait for
 * bytes, an audio clock that runs slow, as Firefox's does without a sound card); a part requested in
 * that gap is paid for and the pause comes before it. Held, the listener hears at most this much silence
 * before the pause instead.
 */
export const SLEEP_MARGIN_MS = 1_000;

/**
 * The first part that would start after `sleepAt` (epoch ms), or less than SLEEP_MARGIN_MS before it, at
 * the current speed: it and those after it are held back. Infinity when the reading ends before the timer
 * is up, or there is no timer.
 */
export function sleepHoldFrom(run: TimedParts, at: PlayPoint, sleepAt: number, now: number): number {
  if (!sleepAt || !run.parts.length) return Infinity;
  // Seconds of audio left before the timer is up (less the margin), at the current speed.
  let left = ((sleepAt - SLEEP_MARGIN_MS - now) / 1000) * (at.rate || 1);
  let k = at.part;
  left -= Math.max(0, run.partDuration(k) - at.partTime);
  while (left > 0 && k + 1 < run.parts.length) left -= run.partDuration(++k);
  return left <= 0 ? k + 1 : Infinity;
}

/** Milliseconds until the sentence being spoken at `at` ends (placed by its share of its part's characters). */
export function untilSentenceEnd(run: TimedParts, at: PlayPoint): number {
  const part = run.parts[at.part];
  const seconds = run.partDuration(at.part);
  let end = 0;
  if (part && part.text.length > 0 && seconds > 0) {
    const chars = (at.partTime / seconds) * part.text.length;
    const sentence = part.sentences.find((s) => s.end > chars) ?? part.sentences[part.sentences.length - 1];
    end = sentence ? (sentence.end / part.text.length) * seconds : 0;
  }
  return (Math.max(0, end - at.partTime) / (at.rate || 1)) * 1000;
}
