/**
 * The extension's words: one source, `locales/{en,ru}.yml`, built by @wxt-dev/i18n into
 * `_locales/<lang>/messages.json` and read through `browser.i18n`, so the browser's interface
 * language chooses them (Russian for ru*, English otherwise) everywhere: manifest, menus, pages.
 */
import { browser } from 'wxt/browser';
import { i18n } from '#i18n';
import { isKnownErrorCode } from '../speech/errors';

export { i18n };

/** The message key of an error code's sentence: `no-key` → `error.no_key` (chrome name `error_no_key`). */
export function errorKey(code: string): string {
  return `error.${code.replaceAll('-', '_')}`;
}

/** Looks up a key built at run time (the typed `i18n.t` takes only literal keys). */
const lookup = i18n.t as unknown as (key: string) => string;

/** Never shown: a service message that looks as if it carried a credential. */
const SECRET = /vk_live_|bearer/i;

/**
 * The words for an error code: the extension's own sentence for a known code; otherwise the
 * service's `detail` when there is one, else the generic sentence. Never a message key.
 */
export function errorText(code: string, detail?: string): string {
  if (isKnownErrorCode(code)) {
    const own = lookup(errorKey(code));
    if (own) return own;
  }
  const text = detail?.trim() ?? '';
  if (text !== '' && !SECRET.test(text)) return text;
  return i18n.t('errorFallback');
}

/** The locale for money and numbers, chosen as `browser.i18n` chooses the messages. */
export function uiLocale(): 'ru-RU' | 'en-US' {
  return browser.i18n.getUILanguage().toLowerCase().startsWith('ru') ? 'ru-RU' : 'en-US';
}
