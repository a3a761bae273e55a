/**
 * Failures the extension deliberately goes on after (a page that cannot be highlighted, a cache
 * write refused): each is logged once per context, with what was being done, so none is silent
 * and none floods the console. Never pass a key or a request body: only codes and names.
 */
const seen = new Set<string>();

export function logIgnored(context: string, err: unknown): void {
  const what = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  const key = `${context}\u0000${what}`;
  if (seen.has(key)) return;
  seen.add(key);
  console.warn(`[trysasha] ${context}: ${what}`);
}

/** `promise.catch(ignore('context'))`: the failure is logged once and the caller goes on. */
export const ignore =
  (context: string) =>
  (err: unknown): undefined => {
    logIgnored(context, err);
    return undefined;
  };
