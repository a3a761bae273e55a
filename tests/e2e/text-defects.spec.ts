/**
 * The text as the author wrote it (issue 46): the visible headline, not `<title>` with its site; a title
 * without its site part; no footnote mark glued to its word; no blank characters billed; no running
 * heads of paginated text.
 */
import { billed, words } from '../fixtures/billed.ts';
import { DEFECT_PAGES } from '../fixtures/text-defects.ts';
import { expect, player, test } from './fixtures.ts';

test.use({ serviceOptions: { msPerChar: 1, minMs: 30 } });

for (const [name, defect] of Object.entries(DEFECT_PAGES)) {
  test(`${name}: the text read is the author's`, async ({ ext, service, pages }) => {
    await ext.configure({ threshold: '1000' });
    pages.put(defect.path, defect.html);
    const { tabId } = await ext.openTab(defect.path);
    const popup = await ext.openPopup(tabId);
    await expect(player(popup)).toHaveAttribute('data-state', 'finished', { timeout: 30_000 });
    const text = billed(service);
    const said = words(text).join(' ');
    if (defect.startsWith) expect(said.startsWith(words(defect.startsWith).join(' '))).toBe(true);
    for (const held of defect.holds) expect(said).toContain(words(held).join(' '));
    for (const lacked of defect.lacks) expect(text).not.toContain(lacked);
  });
}
