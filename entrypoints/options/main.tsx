import { render } from 'preact';
import { Options } from './Options';
import '../popup/popup.css';
import './options.css';

render(<Options />, document.getElementById('app')!);
