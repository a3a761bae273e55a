import pLimit from 'p-limit';
import type { PlayerSink } from '../messaging/player';

/** The part of the service worker's `clients` used here (the DOM lib has no worker globals). */
interface WindowClient {
  url: string;
  postMessage(message: unknown, transfer: Transferable[]): void;
}
const swClients = () =>
  (globalThis as unknown as { clients: { matchAll(o: object): Promise<WindowClient[]> } }).clients;

const PATH = '/offscreen.html';


let creating: Promise<void> | null = null;

async function hasDocument(): Promise<boolean> {
  const contexts = await chrome.runtime.getContexts({
    contextTypes: [chrome.runtime.ContextType.OFFSCREEN_DOCUMENT],
    documentUrls: [chrome.runtime.getURL(PATH)],
  });
  return contexts.length > 0;
}

/** Creates the offscreen document unless it exists (Chrome closes it after ~30 s of silence). */
export async function ensureOffscreenDocument(): Promise<void> {
  if (await hasDocument()) return;
  creating ??= chrome.offscreen
    .createDocument({
      url: PATH,
      reasons: [chrome.offscreen.Reason.AUDIO_PLAYBACK],
      justification: 'Plays the speech of the page being read aloud.',
    })
    .catch((err: unknown) => {
      // A concurrent creation from an earlier worker life: the document exists, which is all we need.
      if (!String(err).includes('single offscreen')) throw err;
    })
    .finally(() => {
      creating = null;
    });
  await creating;
}

async function findClient(): Promise<WindowClient | undefined> {
  const all = await swClients().matchAll({ includeUncontrolled: true, type: 'window' });
  return all.find((c) => new URL(c.url).pathname === PATH);
}

/**
 * Commands are posted in order through one chain; audio bytes are transferred
 * (client.postMessage moves an ArrayBuffer without a copy, runtime messaging would not carry it).
 */
export function offscreenPlayerSink(): PlayerSink {
  const inOrder = pLimit(1);
  return {
    warm() {
      void ensureOffscreenDocument().catch(() => undefined);
    },
    post(cmd) {
      return inOrder(async () => {
        let client = await findClient();
        if (!client) {
          await ensureOffscreenDocument();
          client = await findClient();
        }
        if (!client) throw new Error('The player could not be opened.');
        client.postMessage(cmd, cmd.type === 'append' ? [cmd.bytes] : []);
      });
    },
  };
}
