import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { browser } from 'wxt/browser';
import { sendEarly } from '@/utils/messaging/early-send';
import { askAtOpening, leaveOpeningStart } from '@/utils/pages/popup-start';

// Loaded by popup.html before its bundle (a classic script: it runs as the page is parsed).
export default defineUnlistedScript(() => {
  leaveOpeningStart(
    askAtOpening({
      search: location.search,
      activeTab: () => browser.tabs.query({ active: true, currentWindow: true }).then(([tab]) => tab?.id ?? null),
      send: (tabId) => sendEarly(browser.runtime, 'startReading', { tabId }).then((answer) => answer?.starts === true),
      now: Date.now,
    }),
  );
});
