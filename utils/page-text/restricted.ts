/** The pages no extension may script (browser pages, extension stores, other extensions): a start there is refused with `restricted-page`. */
const RESTRICTED = [
  /^(chrome|edge|brave|opera|vivaldi|yandex|browser|about|view-source|devtools|chrome-search|chrome-untrusted|moz-extension|chrome-extension|resource|data|javascript):/i,
  /^https:\/\/chrome\.google\.com\/webstore/i,
  /^https:\/\/chromewebstore\.google\.com/i,
  /^https:\/\/microsoftedge\.microsoft\.com\/addons/i,
  /^https:\/\/addons\.mozilla\.org/i,
  /^https:\/\/addons\.opera\.com/i,
];

/** Pages no extension may script: browser pages, extension stores, other extensions. */
export function isRestrictedUrl(url: string | undefined): boolean {
  if (!url) return true;
  return RESTRICTED.some((re) => re.test(url));
}
