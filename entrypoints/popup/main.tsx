import { render } from 'preact';
import { Popup, startReadingOnOpen } from './Popup';
import './popup.css';

// Test builds: every state the player is drawn in, from the first frame on, as `drawnStates` (Firefox's
// driver cannot put a script in an extension page before the page's own).
if (import.meta.env.MODE === 'test') {
  const drawn: string[] = [];
  Object.assign(globalThis, { drawnStates: drawn });
  const look = () => {
    const state = document.querySelector('[data-testid="player"]')?.getAttribute('data-state');
    if (state != null && drawn.at(-1) !== state) drawn.push(state);
  };
  new MutationObserver(look).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state'] });
}

// The reading starts before the first render: every millisecond here is one before the first audio.
startReadingOnOpen();
render(<Popup />, document.getElementById('app')!);
