/**
 * The one wait for a page or document that is not listening yet (background): an extension page just
 * opened, a script just put in (it installs its handlers a task after it answers), the PDF page replacing
 * the browser's viewer, an offscreen document just created, a tab not yet at the address it was sent to.
 * Every text source and the sentence mark ask through it, so each has the same rules: asked again while the
 * answer is "nobody there yet" or not the one awaited, until a time or a number of asks; any other error at once.
 */
import { isNoReceiver } from '../messaging/content';

export interface ReadyRules<T> {
  /** An error meaning "nobody there yet": asked again. Default: no receiver for the message. Any other error is thrown. */
  notYet?: (err: unknown) => boolean;
  /** An answer that is not yet the one awaited (the page being replaced still answers): asked again. Default: any. */
  awaited?: (answer: T) => boolean;
  /** Given up after this long (ms) … */
  withinMs?: number;
  /** … or after this many asks. The last answer is returned, or the last error thrown. */
  tries?: number;
  /** Between asks (ms), or by the number of asks made so far. */
  every: number | ((asked: number) => number);
  /** Whether the answer is still wanted (a newer one was asked for meanwhile): if not, nothing more is asked (undefined). */
  wanted?: () => boolean;
  wait?: (ms: number) => Promise<void>;
  now?: () => number;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `ask`, again by `rules` while nobody is there yet or its answer is not the awaited one. */
export function untilReady<T>(ask: () => Promise<T>, rules: ReadyRules<T> & { wanted: () => boolean }): Promise<T | undefined>;
export function untilReady<T>(ask: () => Promise<T>, rules: Omit<ReadyRules<T>, 'wanted'>): Promise<T>;
export async function untilReady<T>(ask: () => Promise<T>, rules: ReadyRules<T>): Promise<T | undefined> {
  const { notYet = isNoReceiver, awaited = () => true, withinMs = Infinity, tries = Infinity, every, wanted = () => true, wait = pause, now = Date.now } = rules;
  const until = now() + withinMs;
  for (let asked = 1; ; asked++) {
    const last = asked >= tries;
    try {
      const answer = await ask();
      if (awaited(answer) || last || now() > until) return answer;
    } catch (err) {
      if (!notYet(err) || last || now() > until) throw err;
    }
    await wait(typeof every === 'number' ? every : every(asked));
    if (!wanted()) return undefined;
  }
}
