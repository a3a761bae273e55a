import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { DEFAULT_SETTINGS } from './settings';

// The kept settings live as long as the module (and its watch, which `fakeBrowser.reset` forgets): loaded afresh for each test.
let settings: typeof import('./settings');
beforeEach(async () => {
  fakeBrowser.reset();
  vi.resetModules();
  settings = await import('./settings');
});

describe('readSettings: the settings kept in memory', () => {
  it('a change written elsewhere (the storage seen changing) is read by the next start', async () => {
    const { readSettings, settingsNow, settingsStorage } = settings;
    expect((await readSettings()).readReferences).toBeUndefined();
    expect(settingsNow()?.readReferences).toBeUndefined();
    await settingsStorage.setValue({ ...DEFAULT_SETTINGS, readReferences: true });
    await vi.waitFor(async () => expect((await readSettings()).readReferences).toBe(true));
  });

  it("the background's own write is read at once after it, before the storage's change event", async () => {
    const { readSettings, settingsNow, writeSettings, settingsStorage } = settings;
    // The change event may come after the write resolves (it does in the browsers): none comes here.
    vi.spyOn(settingsStorage, 'watch').mockImplementation(() => () => undefined);
    expect((await readSettings()).voice).toBe('');
    await writeSettings({ ...DEFAULT_SETTINGS, voice: 'a' });
    expect((await readSettings()).voice).toBe('a');
    await writeSettings({ ...DEFAULT_SETTINGS, voice: 'b' });
    expect(settingsNow()).toBeNull();
    expect((await readSettings()).voice).toBe('b');
  });
});
