import '../../tests/unit/indexeddb.setup';
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
  it('a change written by the background (`settingsStorage.setValue`) is read by the next start', async () => {
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

describe('the settings and the spending totals are kept with the key, not in storage.local', () => {
  it("an older version's settings in storage.local are moved over once; what a content script writes there later is never read", async () => {
    const mine = { ...DEFAULT_SETTINGS, confirmThresholdRub: '25', dailyCapRub: '100' };
    await fakeBrowser.storage.local.set({ settings: mine, settings$: { v: 1 }, 'spending-totals': { day: '2026-12-02', dayRub: '3.0000', month: '2026-12', monthRub: '9.0000' } });
    expect((await settings.readSettings()).confirmThresholdRub).toBe('25');
    expect(await fakeBrowser.storage.local.get(['settings', 'settings$'])).toEqual({});
    const { spendingStorage } = await import('./spending');
    expect((await spendingStorage.getValue())?.dayRub).toBe('3.0000');
    expect(await fakeBrowser.storage.local.get('spending-totals')).toEqual({});

    // Firefox lets a content script write storage.local: a threshold of a million rubles, caps and totals wiped.
    await fakeBrowser.storage.local.set({ settings: { ...mine, confirmThresholdRub: '1000000', dailyCapRub: undefined }, 'spending-totals': null });
    vi.resetModules();
    const fresh = await import('./settings');
    expect(await fresh.readSettings()).toEqual(mine);
    expect((await (await import('./spending')).spendingStorage.getValue())?.dayRub).toBe('3.0000');
  });

  it('a new profile reads the defaults, and a write is read back', async () => {
    expect(await settings.readSettings()).toEqual(DEFAULT_SETTINGS);
    await settings.writeSettings({ ...DEFAULT_SETTINGS, voice: 'v' });
    vi.resetModules();
    expect((await (await import('./settings')).readSettings()).voice).toBe('v');
  });
});
