/**
 * What the three content scripts share: put into pages by the background only (activeTab + scripting,
 * never from the manifest), and announced to an older copy of themselves by WXT's DOM event alone. WXT
 * also sends a `window.postMessage` (its future default is none), which runs the page's own message
 * listeners and slowed each injection.
 */
export const INJECTED: { matches: string[]; registration: 'runtime'; noScriptStartedPostMessage: true } = {
  matches: ['<all_urls>'],
  registration: 'runtime',
  noScriptStartedPostMessage: true,
};
