import { describe, expect, it } from 'vitest';
import { isRestrictedUrl } from './restricted';

describe('isRestrictedUrl: pages no extension may script', () => {
  it.each([
    ['chrome://settings', true],
    ['edge://extensions', true],
    ['about:blank', true],
    ['https://chromewebstore.google.com/detail/x', true],
    ['https://addons.mozilla.org/ru/firefox/', true],
    ['moz-extension://abc/popup.html', true],
    [undefined, true],
    ['https://habr.com/ru/articles/1/', false],
    ['http://127.0.0.1:8080/page.html', false],
  ])('%s → %s', (url, restricted) => expect(isRestrictedUrl(url)).toBe(restricted));
});
