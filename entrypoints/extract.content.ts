import { extractFromPage } from '@/utils/extract-page';

// Injected on demand (activeTab + scripting); its result is executeScript's result.
export default defineContentScript({
  matches: ['<all_urls>'],
  registration: 'runtime',
  main() {
    return extractFromPage();
  },
});
