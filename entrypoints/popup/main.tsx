import { render } from 'preact';
import { Popup } from './Popup';
import './popup.css';

render(<Popup />, document.getElementById('app')!);
