import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { browser } from 'wxt/browser';
import { sendEarly } from '@/utils/messaging/early-send';
import { answered, askAtOpening, leaveOpeningStart, loadBundle, writeOpening } from '@/utils/pages/popup-start';

// Loaded by popup.html before its bundle (a classic script: it runs as the page is parsed), which it loads.
export default defineUnlistedScript(() => {
  const start = askAtOpening({
    search: location.search,
    activeTab: () => browser.tabs.query({ active: true, currentWindow: true }).then(([tab]) => tab?.id ?? null),
    send: (tabId) => sendEarly(browser.runtime, 'startReading', { tabId }).then((answer) => answer?.starts === true),
    now: Date.now,
  });
  leaveOpeningStart(start);
  const parsed = new Promise((resolve) => (document.readyState === 'loading' ? document.addEventListener('DOMContentLoaded', resolve, { once: true }) : resolve(null)));
  // The names come from popup.html (the typed lookup takes only literal keys; a unit test checks those names).
  const message = browser.i18n.getMessage as (name: string) => string;
  void parsed.then(() => writeOpening(document, (name) => message(name)));
  void Promise.all([answered(start), parsed]).then(() => loadBundle(document));
});
