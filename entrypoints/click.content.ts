import { defineContentScript } from 'wxt/utils/define-content-script';
import { INJECTED } from '@/utils/content/injected';
import { installClickToRead } from '@/utils/content/click-to-read';
import { installPageReader } from '@/utils/content/page-reader';

// Registered by the background only while click-to-read is on (and the user granted access to pages):
// the page reader, as the extract script installs it (so "Read aloud from here" knows the block
// right-clicked even on a page not read before), and the ▶ at the start of the block under the pointer.
export default defineContentScript({
  ...INJECTED,
  main(ctx) {
    const reader = installPageReader();
    installClickToRead(ctx, (node) => (reader.lastContextTarget = node));
  },
});
