/** The options page's settings, key and history (the popup and the PDF page read the settings too). */
import { browser } from 'wxt/browser';
import { diagnostics } from '../diagnostics/wired';
import { ignore } from '../log';
import { onPageMessage, type SaveSettingsInput } from '../messaging/protocol';
import { audioCache, checkAccount, forgetAuth, hasOriginPermission, usageHistory } from '../reading/wiring';
import { saveAndCheck, settingsView } from '../settings/options-page';
import { clearApiKey } from '../storage/key-store';
import { accountStorage } from '../storage/settings';
import { type BackgroundContext, onAbort } from './context';
import { clearPdfs } from '../storage/pdf-files';

export function init(signal: AbortSignal, { reader }: Pick<BackgroundContext, 'reader'>): void {
  // Content scripts get no access to storage.local, where the service address lives (Chromium; Firefox
  // has no such switch for storage.local, and the key's origin binding, checked before every request, is
  // what protects it there).
  if (!import.meta.env.FIREFOX) {
    void browser.storage.local.setAccessLevel({ accessLevel: 'TRUSTED_CONTEXTS' }).catch(ignore('closing storage.local to content scripts'));
  }

  const saveSettings = async (data: SaveSettingsInput) => {
    forgetAuth();
    const result = await saveAndCheck(data, { check: checkAccount, hasPermission: hasOriginPermission });
    forgetAuth();
    return result;
  };
  // Tests save the key and the address as the options page's Save does, over the settings shown, without
  // loading that page (a cost to every test); the page has tests of its own (test builds only).
  diagnostics.expose({ saveSettings: async (changes: Partial<SaveSettingsInput>) => saveSettings({ ...(await settingsView()).settings, key: '', ...changes }) });

  onAbort(
    signal,
    onPageMessage('getSettings', () => {
      return settingsView();
    }),
    onPageMessage('saveSettings', ({ data }) => saveSettings(data)),
    // What was read goes with the history of it: the PDFs kept for the PDF page too.
    onPageMessage('clearHistory', async () => {
      await usageHistory.clear();
      await clearPdfs();
    }),
    onPageMessage('removeKey', async () => {
      await reader.stop({ drop: true });
      await clearApiKey();
      forgetAuth();
      await audioCache.clear();
      await clearPdfs();
      await accountStorage.setValue(null);
      return settingsView();
    }),
  );
}
