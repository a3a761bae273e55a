import { defineContentScript } from 'wxt/utils/define-content-script';
import { INJECTED } from '@/utils/content/injected';
import { installFloatingPlayer } from '@/utils/content/floating-player';

// The floating mini-player, injected by the background into the tab being read once the reading is
// under way (a script apart from the extract script, so the first audio never waits for its UI code).
// Resident after its first injection; a second injection finds the first's player and adds nothing.
export default defineContentScript({
  ...INJECTED,
  main(ctx) {
    installFloatingPlayer(ctx);
  },
});
