/**
 * A queued page's article, fetched when its turn comes (background): the page is downloaded with the
 * browser's cookies (a site the user is signed in to gives what the user sees), read as the article
 * (`text/parse-article.ts`, in a document parser the caller provides), and refused clearly when it is
 * not a web page, too large, leads where it may not, or holds nothing to read.
 */
import type { CleanupChoices, ExtractedText } from '../text/extract';
import { ReadingError } from '../speech/errors';
import { fetchChecked, type FetchDeps, PAGE_MAX_BYTES, readTextCapped } from '../net/bounded-fetch';

export interface ArticleDeps extends FetchDeps {
  parse(html: string, url: string, choices: CleanupChoices): Promise<ExtractedText>;
  choices(): Promise<CleanupChoices>;
}

export async function fetchArticle(url: string, deps: ArticleDeps, signal: AbortSignal = AbortSignal.timeout(30_000)): Promise<ExtractedText> {
  // Where it may lead and how much is read: `net/bounded-fetch.ts`.
  const res = await fetchChecked(url, { credentials: 'include', signal }, deps);
  if (!res.ok) throw new ReadingError(res.status === 401 || res.status === 403 ? 'page-refused' : 'network');
  const type = (res.headers.get('Content-Type') ?? '').toLowerCase();
  if (!/html|xml|text\/plain/.test(type)) throw new ReadingError('not-a-page');
  const html = await readTextCapped(res, PAGE_MAX_BYTES);
  const text = await deps.parse(html, res.url || url, await deps.choices());
  if (!text.blocks.some((b) => b.text.trim())) throw new ReadingError('no-text');
  return text;
}
