import { render } from 'preact';

function Options() {
  return <main><input data-testid="api-key" type="password" /></main>;
}

render(<Options />, document.getElementById('app')!);
