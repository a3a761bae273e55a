import { useEffect, useState } from 'preact/hooks';
import { browser, type Browser } from 'wxt/browser';

/** The extension's keyboard shortcuts as the browser has them bound; rebinding happens in the browser's page. */
export function Shortcuts({ title, unset, change }: { title: string; unset: string; change: string }) {
  const [commands, setCommands] = useState<Browser.commands.Command[]>([]);
  useEffect(() => {
    void browser.commands.getAll().then((all) => setCommands(all.filter((c) => c.name && c.description)));
  }, []);
  return (
    <details class="shortcuts" data-testid="shortcuts">
      <summary>{title}</summary>
      <dl>
        {commands.map((c) => (
          <div key={c.name} data-testid="shortcut" data-command={c.name} data-shortcut={c.shortcut ?? ''}>
            <dt>{c.description}</dt>
            <dd>{c.shortcut ? <kbd>{c.shortcut}</kbd> : unset}</dd>
          </div>
        ))}
      </dl>
      <button type="button" onClick={() => void browser.tabs.create({ url: 'chrome://extensions/shortcuts' })}>
        {change}
      </button>
    </details>
  );
}
