import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { Browser } from 'wxt/browser';
import type { ReadingCommand } from '../messaging/protocol';
import type { Reader } from '../reading/reader';
import { init } from './commands';

type OnCommand = (command: string, tab?: Browser.tabs.Tab) => void;

/** `commands.onCommand` as the browser fires it (the fake browser leaves `commands` unmocked). */
function commandEvent() {
  const listeners = new Set<OnCommand>();
  return {
    addListener: (listener: OnCommand) => void listeners.add(listener),
    removeListener: (listener: OnCommand) => void listeners.delete(listener),
    hasListeners: () => listeners.size > 0,
    press: (command: string, tab?: Browser.tabs.Tab) => listeners.forEach((listener) => listener(command, tab)),
  };
}

let shortcuts: ReturnType<typeof commandEvent>;
let start: ReturnType<typeof vi.fn<Reader['start']>>;
let runCommand: ReturnType<typeof vi.fn<(command: ReadingCommand) => Promise<void>>>;
let feature: AbortController;
beforeEach(() => {
  fakeBrowser.reset();
  shortcuts = commandEvent();
  Object.assign(fakeBrowser.commands, { onCommand: shortcuts });
  start = vi.fn<Reader['start']>(async () => undefined);
  runCommand = vi.fn(async () => undefined);
  feature = new AbortController();
  // The feature alone: a reader that only records its starts, and the commands it is handed.
  init(feature.signal, { reader: { start } as unknown as Reader, runCommand });
});

describe('the keyboard shortcuts, alone', () => {
  it.each([
    ['toggle-pause', 'toggle'],
    ['stop', 'stop'],
    ['next', 'next'],
    ['previous', 'prev'],
  ])('%s runs the reading command %s', (shortcut, command) => {
    shortcuts.press(shortcut);
    expect(runCommand).toHaveBeenCalledExactlyOnceWith(command);
    expect(start).not.toHaveBeenCalled();
  });

  it("read: reads the shortcut's tab, without looking for one", async () => {
    const query = vi.spyOn(fakeBrowser.tabs, 'query');
    const tab = (await fakeBrowser.tabs.create({ url: 'https://example.com/a' })) as Browser.tabs.Tab;
    shortcuts.press('read', tab);
    await vi.waitFor(() => expect(start).toHaveBeenCalledOnce());
    expect(start.mock.calls[0]![0]).toMatchObject({ tabId: tab.id, source: '' });
    expect(query).not.toHaveBeenCalled();
    expect(runCommand).not.toHaveBeenCalled();
  });

  it('read with no tab given: reads the active tab of the current window', async () => {
    const window = (await fakeBrowser.windows.create({ focused: true }))!;
    await fakeBrowser.tabs.create({ windowId: window.id, url: 'https://example.com/a' });
    const active = (await fakeBrowser.tabs.create({ windowId: window.id, url: 'https://example.com/b', active: true })) as Browser.tabs.Tab;
    shortcuts.press('read');
    await vi.waitFor(() => expect(start).toHaveBeenCalledOnce());
    expect(start.mock.calls[0]![0]).toMatchObject({ tabId: active.id });
  });

  it('an unknown command does nothing', () => {
    shortcuts.press('something-else');
    expect(runCommand).not.toHaveBeenCalled();
    expect(start).not.toHaveBeenCalled();
  });

  it('once its signal aborts, the feature has left the browser: a shortcut reaches nothing', () => {
    feature.abort();
    expect(shortcuts.hasListeners()).toBe(false);
    shortcuts.press('toggle-pause');
    expect(runCommand).not.toHaveBeenCalled();
  });
});
