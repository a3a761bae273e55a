import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { i18n } from '@/utils/pages/i18n';
import { followStored } from '@/utils/storage/stored-value';
import { narrowerGrants, PAGE_ORIGINS } from '@/utils/settings/page-access';
import { DEFAULT_PAGE_OPTIONS, type PageOptions, pageOptionsStorage } from '@/utils/storage/page-options';

/**
 * What the extension shows on the page being read; each choice applies at once (no Save needed).
 * Click-to-read asks the browser for access to pages first, in the click itself (Firefox refuses a
 * request made after an await); refused, it stays off and says why.
 */
export function PageOptionsBox() {
  const [options, setOptions] = useState<PageOptions>(DEFAULT_PAGE_OPTIONS);
  const [denied, setDenied] = useState(false);
  // The origins granted now, at hand before the click (a request after an await is refused in Firefox).
  const [granted, setGranted] = useState<string[]>([]);
  useEffect(() => followStored(pageOptionsStorage, DEFAULT_PAGE_OPTIONS, (o) => setOptions({ ...DEFAULT_PAGE_OPTIONS, ...o })), []);
  useEffect(() => {
    const read = () => void browser.permissions.getAll().then((p) => setGranted(p.origins ?? []), () => undefined);
    read();
    browser.permissions.onAdded.addListener(read);
    browser.permissions.onRemoved.addListener(read);
    return () => {
      browser.permissions.onAdded.removeListener(read);
      browser.permissions.onRemoved.removeListener(read);
    };
  }, []);
  const save = (patch: Partial<PageOptions>) => {
    const next = { ...options, ...patch };
    setOptions(next);
    void pageOptionsStorage.setValue(next);
  };
  return (
    <fieldset class="page-options">
      <legend>{i18n.t('pageOptions')}</legend>
      <label class="check">
        <input type="checkbox" data-testid="floating-player-option" checked={options.floatingPlayer} onChange={(e) => save({ floatingPlayer: e.currentTarget.checked })} />{' '}
        {i18n.t('floatingPlayerOption')}
      </label>
      <label class="check">
        <input type="checkbox" data-testid="word-mark-option" checked={options.wordMark} onChange={(e) => save({ wordMark: e.currentTarget.checked })} />{' '}
        {i18n.t('wordMarkOption')}
      </label>
      <label class="check">
        <input
          type="checkbox"
          data-testid="click-to-read-option"
          checked={options.clickToRead}
          onChange={(e) => {
            const on = e.currentTarget.checked;
            setDenied(false);
            if (!on) {
              save({ clickToRead: false });
              // The access to every site it asked for goes with it. Chrome's removal takes the sites granted
              // one by one too (a service address, a queued page's site): they are asked for again at once,
              // within the click's activation. Firefox removes only what it is given.
              if (!PAGE_ORIGINS.some((o) => granted.includes(o))) return;
              const keep = narrowerGrants(granted, browser.runtime.getManifest().host_permissions ?? []);
              const removed = browser.permissions.remove({ origins: PAGE_ORIGINS });
              if (!import.meta.env.FIREFOX && keep.length) void removed.then(() => browser.permissions.request({ origins: keep })).catch(() => undefined);
              else void removed.catch(() => undefined);
              return;
            }
            // Turned on only once the browser grants it; until then the box shows off.
            e.currentTarget.checked = false;
            void browser.permissions.request({ origins: PAGE_ORIGINS }).then(
              (granted) => (granted ? save({ clickToRead: true }) : setDenied(true)),
              () => setDenied(true),
            );
          }}
        />{' '}
        {i18n.t('clickToReadOption')}
      </label>
      <p class="hint">{denied ? <span role="alert" data-testid="click-to-read-denied">{i18n.t('clickToReadDenied')}</span> : i18n.t('clickToReadHint')}</p>
    </fieldset>
  );
}
