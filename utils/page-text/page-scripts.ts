/**
 * Click-to-read's content script (background): registered while the option is on, for the pages the
 * user granted access to (the browser injects it only where the extension has that access), and
 * unregistered when it is switched off. Made to match the option at every start of the background.
 */
export const CLICK_TO_READ_SCRIPT = { id: 'click-to-read', js: ['/content-scripts/click.js'], matches: ['https://*/*', 'http://*/*'] };

interface Registration {
  id: string;
  js: string[];
  matches: string[];
  runAt: 'document_end';
  persistAcrossSessions: boolean;
}

export interface ScriptRegistry {
  getRegisteredContentScripts(filter: { ids: string[] }): Promise<{ id: string }[]>;
  registerContentScripts(scripts: Registration[]): Promise<void>;
  updateContentScripts(scripts: Registration[]): Promise<void>;
  unregisterContentScripts(filter: { ids: string[] }): Promise<void>;
}

/**
 * At the end of parsing, not at idle: a page still waiting on slow pictures or third-party scripts
 * would otherwise get its ▶ only once they load. Installing does no work; the blocks are worked out on
 * the first hover.
 */
const REGISTRATION: Registration = { ...CLICK_TO_READ_SCRIPT, runAt: 'document_end', persistAcrossSessions: true };

export async function syncClickToRead(scripting: ScriptRegistry, on: boolean): Promise<void> {
  const registered = (await scripting.getRegisteredContentScripts({ ids: [CLICK_TO_READ_SCRIPT.id] })).length > 0;
  if (on && !registered) {
    await scripting.registerContentScripts([REGISTRATION]);
  } else if (on) {
    // Kept from an earlier version of the extension: brought up to this one's definition.
    await scripting.updateContentScripts([REGISTRATION]);
  } else if (registered) {
    await scripting.unregisterContentScripts({ ids: [CLICK_TO_READ_SCRIPT.id] });
  }
}
