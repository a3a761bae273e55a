/**
 * A queued page's article, fetched when its turn comes (background): the page is downloaded with the
 * browser's cookies (a site the user is signed in to gives what the user sees), read as the article
 * (`text/parse-article.ts`, in a document parser the caller provides), and refused clearly when it is
 * not a web page or holds nothing to read.
 */
import type { CleanupChoices, ExtractedText } from '../text/extract';
import { ReadingError } from '../speech/errors';

export interface ArticleDeps {
  fetch(url: string, init: RequestInit): Promise<Response>;
  parse(html: string, url: string, choices: CleanupChoices): Promise<ExtractedText>;
  choices(): Promise<CleanupChoices>;
}

/** Pages bigger than this are not read from the queue (a runaway download). */
const MAX_BYTES = 8 * 1024 * 1024;

export async function fetchArticle(url: string, deps: ArticleDeps, signal: AbortSignal = AbortSignal.timeout(30_000)): Promise<ExtractedText> {
  let res: Response;
  try {
    res = await deps.fetch(url, { credentials: 'include', redirect: 'follow', signal });
  } catch {
    throw new ReadingError('network');
  }
  if (!res.ok) throw new ReadingError(res.status === 401 || res.status === 403 ? 'page-refused' : 'network');
  const type = (res.headers.get('Content-Type') ?? '').toLowerCase();
  if (!/html|xml|text\/plain/.test(type)) throw new ReadingError('not-a-page');
  const html = await res.text();
  if (html.length > MAX_BYTES) throw new ReadingError('not-a-page');
  const text = await deps.parse(html, res.url || url, await deps.choices());
  if (!text.blocks.some((b) => b.text.trim())) throw new ReadingError('no-text');
  return text;
}
