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

// Test builds: the states drawn, as `drawnStates`.
diagnostics.expose({ drawnStates: diagnostics.counters(recordDrawnStates) });

// The reading was asked for by popup-start.js, before this bundle loaded.
followOpeningStart();
render(<Popup />, document.getElementById('app')!);
