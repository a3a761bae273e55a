import { render } from 'preact';
import { Welcome } from './Welcome';
import '../popup/popup.css';
import '../options/options.css';
import './welcome.css';

render(<Welcome />, document.getElementById('app')!);
