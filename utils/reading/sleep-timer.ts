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
 * The first part that would start after `sleepAt` (epoch ms) at the current speed: it and those after it
 * are held back. Infinity when the reading ends before the timer is up, or there is no timer.
 */
export function sleepHoldFrom(run: TimedParts, at: PlayPoint, sleepAt: number, now: number): number {
  if (!sleepAt || !run.parts.length) return Infinity;
  // Seconds of audio left before the timer is up, at the current speed.
  let left = ((sleepAt - now) / 1000) * (at.rate || 1);
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
