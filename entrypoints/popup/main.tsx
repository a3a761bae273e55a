import { render } from 'preact';
import { diagnostics } from '@/utils/diagnostics/wired';
import { followOpeningStart, Popup } from './Popup';
import './popup.css';

/** Every state the player is drawn in, from the first frame on (Firefox's driver cannot put a script in an extension page before the page's own). */
function recordDrawnStates(): string[] {
  const drawn: string[] = [];
  const look = () => {
    const state = document.querySelector('[data-testid="player"]')?.getAttribute('data-state');
    if (state != null && drawn.at(-1) !== state) drawn.push(state);
  };
  new MutationObserver(look).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state'] });
  return drawn;
}

// Test builds: the states drawn, as `drawnStates`; when this bundle ran (epoch ms), as `bundleRanAt`.
diagnostics.expose({ drawnStates: diagnostics.counters(recordDrawnStates), bundleRanAt: diagnostics.counters(() => performance.timeOrigin + performance.now()) });

// The reading was asked for by popup-start.js, before this bundle loaded.
followOpeningStart();
// The page's first frame (index.html) gives way to the popup's, in the same task: no frame between them.
const app = document.getElementById('app')!;
app.replaceChildren();
render(<Popup />, app);
