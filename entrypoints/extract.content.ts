export default defineContentScript({
  matches: ['<all_urls>'],
  registration: 'runtime',
  main() {
    return { text: document.body?.innerText ?? '' };
  },
});
