/**
 * Delivering the sentence highlight to a page whose script was just put in (background). The script
 * installs its message handlers in the task after it answers (`answerPendingExtract`), so a highlight
 * sent the moment the injection resolves can find no receiver yet: it is sent again, a few times,
 * unless a newer highlight was asked for meanwhile (an old sentence never overwrites a newer one).
 */

/** The browsers' error for a message to a tab whose page has no listener (yet). */
export function noReceiver(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /Receiving end does not exist|Could not establish connection/i.test(message);
}

export interface Delivery {
  /** Sends once; rejects as the browser does. */
  send: () => Promise<unknown>;
  /** Whether this highlight is still the newest asked for its tab. */
  latest: () => boolean;
  /** Waits between tries. */
  wait: (ms: number) => Promise<void>;
  tries?: number;
  spacingMs?: number;
}

/** Sends, trying again on a missing receiver while this highlight is still the newest; other errors reject. */
export async function deliverHighlight({ send, latest, wait, tries = 5, spacingMs = 30 }: Delivery): Promise<unknown> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      if (!noReceiver(error) || attempt >= tries) throw error;
      await wait(spacingMs);
      if (!latest()) return undefined;
    }
  }
}
