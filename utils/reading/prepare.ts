/**
 * What a new reading starts from, gathered at once: the text (its extraction is the longest step, so
 * the key, settings and account are read meanwhile), the settings, and the account as the service has
 * it now — its price decides the estimate and the confirmation. Only when that refresh fails is the
 * last known account used, and `stalePrice` says so (the popup tells the user).
 */
import type { AccountInfo, Settings } from '../storage/settings';
import type { ExtractedText } from '../text/extract';
import type { ReaderDeps } from './deps';
import { ReadingError } from './plan';
import { diagnostics } from '../diagnostics/wired';

export interface Prepared {
  text: ExtractedText;
  settings: Settings;
  account: AccountInfo;
  stalePrice: boolean;
}

export async function prepare(deps: ReaderDeps, extract: () => Promise<ExtractedText>): Promise<Prepared> {
  const extraction = extract().then((text) => ({ text }), (error: unknown) => ({ error }));
  const stored = Promise.all([deps.keyProblem(), deps.getSettings(), deps.getAccount()]);
  // Asked for at once, not once the key is found good: its request checks the key and the address
  // itself (the check just begun is shared) and is never sent with a key that fails.
  const fresh = deps.refreshAccount().then(
    (account) => (diagnostics.mark('account'), { account }),
    (error: unknown) => ({ error }),
  );
  const [problem, settings, cached] = await stored;
  if (problem) throw new ReadingError(problem);
  const extracted = await extraction;
  if ('error' in extracted) throw extracted.error;
  const answer = await fresh;
  if ('account' in answer) return { text: extracted.text, settings, account: answer.account, stalePrice: false };
  if (!cached) throw answer.error;
  return { text: extracted.text, settings, account: cached, stalePrice: true };
}
