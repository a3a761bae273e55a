/**
 * What pages of a PDF would cost (runs in the PDF page): each page's blocks planned as the reading
 * plans them (pronunciation rules, web addresses, scripts the service cannot read), counted in code
 * points and priced exactly, in the same batches as the reading: the popup's estimate for those pages is the same.
 */
import { planParts } from '../reading/plan';
import { costOf, formatRubPlain, parseRub } from '../money/money';
import type { Settings } from '../storage/settings';
import type { PdfText } from './pdf-text';

export interface PagesCost {
  chars: number;
  /** Plain 4-digit decimal rubles; '' when the price is not known (no key checked yet). */
  rub: string;
}

export async function pagesCost(
  text: Pick<PdfText, 'batches'>,
  from: number,
  to: number,
  settings: Pick<Settings, 'pronunciations' | 'urls'>,
  priceRub: string | null,
  signal?: AbortSignal,
): Promise<PagesCost> {
  let chars = 0;
  // Batch by batch, as the reading plans them: the same blocks, the same count.
  for await (const batch of text.batches(from, to)) {
    signal?.throwIfAborted();
    chars += planParts(batch.blocks.map((b) => ({ text: b.text, kind: b.kind })), { rules: settings.pronunciations ?? [], urls: settings.urls ?? 'domain' }).estimateChars;
  }
  const price = priceRub ? parseRub(priceRub) : null;
  return { chars, rub: price === null ? '' : formatRubPlain(costOf(chars, price)) };
}
