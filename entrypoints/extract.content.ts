import { defineContentScript } from 'wxt/utils/define-content-script';
import { INJECTED } from '@/utils/content/injected';
import { answerPendingExtract, installPageReader } from '@/utils/text/page-reader';

// Injected on demand (activeTab + scripting) and resident from then on: it only installs the page
// reader, which answers the background's `extract` / `highlight` / `clearHighlight` messages
// (utils/messaging/content.ts). A second injection finds the first's reader and adds nothing. An
// extraction handed over with the injection is answered as its result (utils/reading/tab-text.ts).
export default defineContentScript({
  ...INJECTED,
  main() {
    return answerPendingExtract(installPageReader());
  },
});
