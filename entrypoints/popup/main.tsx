import { render } from 'preact';
import { Popup, startReadingOnOpen } from './Popup';
import './popup.css';

// The reading starts before the first render: every millisecond here is one before the first audio.
startReadingOnOpen();
render(<Popup />, document.getElementById('app')!);
