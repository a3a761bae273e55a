import pLimit from 'p-limit';
import type { PlayerSink } from './player-protocol';

/** The part of the service worker's `clients` used here (the DOM lib has no worker globals). */
export interface WindowClient {
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

/** The name of the port the offscreen document holds open to the worker while it lives. */
export const PLAYER_PORT = 'offscreen-player';

/** A port's end as the worker sees it (`runtime.Port`, narrowed for tests). */
export interface PlayerPort {
  name: string;
  onDisconnect: { addListener(listener: () => void): void };
}

/** What the sink reaches the offscreen document through (the browser's by default; tests pass their own). */
export interface OffscreenAccess {
  findClient(): Promise<WindowClient | undefined>;
  ensureDocument(): Promise<void>;
  /** Calls `listener` with each port opened to the worker. */
  onConnect(listener: (port: PlayerPort) => void): void;
}

const browserAccess: OffscreenAccess = {
  findClient,
  ensureDocument: ensureOffscreenDocument,
  onConnect: (listener) => chrome.runtime.onConnect.addListener(listener),
};

/**
 * Commands are posted in order through one chain; audio bytes are transferred
 * (client.postMessage moves an ArrayBuffer without a copy, runtime messaging would not carry it).
 * The document's client is looked up once and kept while the document's port is open: a lookup takes
 * the worker's time before each command (the first bytes' among them). A closed document's
 * port closes with it, and the next command looks again (and opens the document if it is gone).
 * `lost`: the document closed with a reading loaded (Chrome closes it under memory pressure): the
 * reader is told at once, as the player would tell it — when nothing more was to be sent to it (the
 * part ahead all handed over), no command would find out, and the reading would stand still.
 */
export function offscreenPlayerSink(access: OffscreenAccess = browserAccess, lost: (readingId: string) => void = () => undefined): PlayerSink {
  const inOrder = pLimit(1);
  let port: PlayerPort | null = null;
  let kept: WindowClient | null = null;
  /**
   * The reading the document plays ('' after a stop): the last one a command was posted for — a worker
   * started again carries on with the player's reading without loading it.
   */
  let loaded = '';
  access.onConnect((opened) => {
    if (opened.name !== PLAYER_PORT) return;
    port = opened;
    kept = null;
    opened.onDisconnect.addListener(() => {
      if (port !== opened) return;
      port = null;
      kept = null;
      if (loaded) lost(loaded);
    });
  });
  return {
    warm() {
      void access.ensureDocument().catch(() => undefined);
    },
    post(cmd) {
      return inOrder(async () => {
        let client = kept;
        if (!client) {
          const portBefore = port;
          client = (await access.findClient()) ?? null;
          if (!client) {
            await access.ensureDocument();
            client = (await access.findClient()) ?? null;
          }
          if (!client) throw new Error('The player could not be opened.');
          // Kept only when a port was open before the lookup and still is: the client found is its document's.
          if (portBefore && port === portBefore) kept = client;
        }
        client.postMessage(cmd, cmd.type === 'append' ? [cmd.bytes] : []);
        if (cmd.type !== 'stop') loaded = cmd.readingId;
        else if (cmd.readingId === loaded) loaded = '';
      });
    },
  };
}
