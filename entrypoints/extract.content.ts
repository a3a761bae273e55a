import { defineContentScript } from 'wxt/utils/define-content-script';
import { answerPendingExtract, installPageReader } from '@/utils/text/page-reader';

// Injected on demand (activeTab + scripting) and resident from then on: it only installs the page
// reader, which answers the background's `extract` / `highlight` / `clearHighlight` messages
// (utils/messaging/content.ts). A second injection finds the first's reader and adds nothing. An
// extraction handed over with the injection is answered as its result (utils/reading/tab-text.ts).
export default defineContentScript({
  matches: ['<all_urls>'],
  registration: 'runtime',
  // A new copy is told to the old ones by a DOM event; WXT's extra `window.postMessage` (its future
  // default is none) would run the page's own message listeners, and took ~3.5 ms of the injection.
  noScriptStartedPostMessage: true,
  main() {
    return answerPendingExtract(installPageReader());
  },
});
