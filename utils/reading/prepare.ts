/**
 * What a new reading starts from, gathered at once: the text (its extraction is the longest step, so
 * the key, settings and account are read meanwhile), the settings, and the account — the one known,
 * or a fresh one when none is. `fresh` answers later with the account as the service has it now.
 */
import type { AccountInfo, Settings } from '../storage/settings';
import type { ExtractedText } from '../text/extract';
import type { ReaderDeps } from './deps';
import { ReadingError } from './plan';

export interface Prepared {
  text: ExtractedText;
  settings: Settings;
  account: AccountInfo;
  fresh: Promise<AccountInfo | null>;
}

export async function prepare(deps: ReaderDeps, extract: () => Promise<ExtractedText>): Promise<Prepared> {
  const extraction = extract().then((text) => ({ text }), (error: unknown) => ({ error }));
  const [problem, settings, cached] = await Promise.all([deps.keyProblem(), deps.getSettings(), deps.getAccount()]);
  if (problem) throw new ReadingError(problem);
  const fresh = deps.refreshAccount().then((account) => ({ account }), (error: unknown) => ({ error }));
  const extracted = await extraction;
  if ('error' in extracted) throw extracted.error;
  let account = cached;
  if (!account) {
    const answer = await fresh;
    if ('error' in answer) throw answer.error;
    account = answer.account;
  }
  return { text: extracted.text, settings, account, fresh: fresh.then((a) => ('account' in a ? a.account : null)) };
}
