import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineExtensionMessaging } from '@webext-core/messaging';
import type { ProtocolMap } from './protocol';
import { sendEarly } from './early-send';

type Listener = (message: unknown, sender: object, respond: (answer: unknown) => void) => boolean | void;

/** A runtime whose messages reach the listeners the library adds, as the browser's would. */
function runtimeWithListeners() {
  const listeners: Listener[] = [];
  const deliver = (message: unknown) =>
    new Promise<unknown>((resolve) => {
      for (const listener of listeners) if (listener(message, { url: 'chrome-extension://id/popup.html' }, resolve) === true) return;
      resolve(undefined);
    });
  vi.stubGlobal('chrome', { runtime: { onMessage: { addListener: (l: Listener) => listeners.push(l), removeListener: () => undefined }, lastError: undefined } });
  return { sendMessage: deliver };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('sendEarly: one message in the form the background\'s messenger (@webext-core/messaging) reads', () => {
  it.each([
    { handler: () => ({ starts: true }), want: { starts: true } },
    { handler: () => ({ starts: false }), want: { starts: false } },
  ])('the answer of the library\'s handler comes back ($want.starts)', async ({ handler, want }) => {
    const runtime = runtimeWithListeners();
    const seen: unknown[] = [];
    defineExtensionMessaging<ProtocolMap>().onMessage('startReading', (message) => (seen.push(message.data), handler()));
    await expect(sendEarly(runtime, 'startReading', { tabId: 7 })).resolves.toEqual(want);
    expect(seen).toEqual([{ tabId: 7 }]);
  });

  it("a handler's failure is the send's, with its message", async () => {
    const runtime = runtimeWithListeners();
    defineExtensionMessaging<ProtocolMap>().onMessage('startReading', () => {
      throw new Error('restricted-page');
    });
    await expect(sendEarly(runtime, 'startReading', { tabId: 7 })).rejects.toThrow('restricted-page');
  });

  it('no handler for the message: it fails, saying so', async () => {
    const runtime = runtimeWithListeners();
    defineExtensionMessaging<ProtocolMap>().onMessage('trySample', () => ({ starts: false }));
    await expect(sendEarly(runtime, 'startReading', { tabId: 7 })).rejects.toThrow('No response');
  });
});
