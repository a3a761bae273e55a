import { defineContentScript } from 'wxt/utils/define-content-script';
import { extractFromPage } from '@/utils/text/extract';
import { fromHere, installPageReader } from '@/utils/text/page-reader';

// Injected on demand (activeTab + scripting); its result is executeScript's result.
// The background sets `__trysashaExtractMode` just before, for "Read from here".
export default defineContentScript({
  matches: ['<all_urls>'],
  registration: 'runtime',
  main() {
    const page = installPageReader();
    const holder = globalThis as unknown as { __trysashaExtractMode?: string };
    const mode = holder.__trysashaExtractMode;
    delete holder.__trysashaExtractMode;
    if (mode === 'from-here') {
      return fromHere(extractFromPage(document, { articleOnly: true }), page.lastContextTarget);
    }
    return extractFromPage();
  },
});
