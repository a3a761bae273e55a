import { render } from 'preact';

function Popup() {
  return <main data-testid="player" data-state="idle" />;
}

render(<Popup />, document.getElementById('app')!);
