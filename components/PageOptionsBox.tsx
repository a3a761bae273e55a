import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { i18n } from '@/utils/pages/i18n';
import { followStored } from '@/utils/storage/stored-value';
import { DEFAULT_PAGE_OPTIONS, type PageOptions, pageOptionsStorage } from '@/utils/storage/page-options';

/** The pages click-to-read runs on: the ones the user visits (asked for when it is switched on). */
export const PAGE_ORIGINS = ['https://*/*', 'http://*/*'];

/**
 * What the extension shows on the page being read; each choice applies at once (no Save needed).
 * Click-to-read asks the browser for access to pages first, in the click itself (Firefox refuses a
 * request made after an await); refused, it stays off and says why.
 */
export function PageOptionsBox() {
  const [options, setOptions] = useState<PageOptions>(DEFAULT_PAGE_OPTIONS);
  const [denied, setDenied] = useState(false);
  useEffect(() => followStored(pageOptionsStorage, DEFAULT_PAGE_OPTIONS, (o) => setOptions({ ...DEFAULT_PAGE_OPTIONS, ...o })), []);
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
        <input
          type="checkbox"
          data-testid="click-to-read-option"
          checked={options.clickToRead}
          onChange={(e) => {
            const on = e.currentTarget.checked;
            setDenied(false);
            if (!on) return save({ clickToRead: false });
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
