/**
 * Click-to-read's content script (background): registered while the option is on, for the pages the
 * user granted access to (the browser injects it only where the extension has that access), and
 * unregistered when it is switched off. Made to match the option at every start of the background.
 */
export const CLICK_TO_READ_SCRIPT = { id: 'click-to-read', js: ['/content-scripts/click.js'], matches: ['https://*/*', 'http://*/*'] };

export interface ScriptRegistry {
  getRegisteredContentScripts(filter: { ids: string[] }): Promise<{ id: string }[]>;
  registerContentScripts(scripts: { id: string; js: string[]; matches: string[]; runAt: 'document_idle'; persistAcrossSessions: boolean }[]): Promise<void>;
  unregisterContentScripts(filter: { ids: string[] }): Promise<void>;
}

export async function syncClickToRead(scripting: ScriptRegistry, on: boolean): Promise<void> {
  const registered = (await scripting.getRegisteredContentScripts({ ids: [CLICK_TO_READ_SCRIPT.id] })).length > 0;
  if (on && !registered) {
    await scripting.registerContentScripts([{ ...CLICK_TO_READ_SCRIPT, runAt: 'document_idle', persistAcrossSessions: true }]);
  } else if (!on && registered) {
    await scripting.unregisterContentScripts({ ids: [CLICK_TO_READ_SCRIPT.id] });
  }
}
