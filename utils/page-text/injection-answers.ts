/**
 * What an injected function's result says, as the reading's text: the extract script's answer to the
 * request handed over with it, or the answer the background makes from what `pageFacts` read. Apart from
 * the injecting (tab-text.ts): these only read a result, and touch no tab.
 */
import type { PageFacts } from '../text/page-facts';
import { selectionText, type ExtractedText } from '../text/extract';
import { titleFirstFromHead } from '../text/title-first';

/** The extract script's answer to the request handed over with it (`id`), else null. */
export function answerOf(result: unknown, id: string): ExtractedText | null {
  const answer = result as (ExtractedText & { requestId?: string }) | null | undefined;
  if (answer?.requestId !== id) return null;
  const { requestId: _, ...text } = answer;
  return text;
}

/**
 * The answer what `pageFacts` read makes: its selection, else (`headMax` over 0) its article's title read
 * first, as the page's script would answer (`titleFirstFromHead`); null when neither (the script's answer
 * is waited for).
 */
export function earlyAnswer(read: unknown, headMax = 0): ExtractedText | null {
  const r = read as Partial<PageFacts> | null | undefined;
  if (!r || typeof r.selected !== 'string' || typeof r.title !== 'string') return null;
  const page = { site: String(r.site ?? ''), url: String(r.url ?? '') };
  if (r.selected.trim()) return { ...selectionText(r.selected, r.title), ...page };
  if (headMax <= 0 || !r.head) return null;
  try {
    const early = titleFirstFromHead(r.head, r.title, headMax);
    return early && { ...early, ...page };
  } catch {
    // Facts of an unexpected shape: the script's own answer is waited for.
    return null;
  }
}
