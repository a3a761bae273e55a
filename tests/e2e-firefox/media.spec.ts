/**
 * Media keys and the system's media controls in Firefox: the player in the background page publishes
 * the reading through the Media Session API and hands its actions to the reader (the test presses
 * the handlers the player registered: no API presses a real media key).
 */
import { makeArticleHtml } from '../fixtures/make-article.ts';
import { evaluate } from './firefox.ts';
import { attr, expect, type Ext, state, test } from './fixtures.ts';

type Bg = { player: { controls: { press(action: string): void } }; navigator: Navigator };

test('the reading is in the media controls with its title; their pause, play, next and stop drive it', async ({ ext, pages }) => {
  await ext.configure();
  pages.put('/long.html', makeArticleHtml(6_000, 'Статья для медиаклавиш'));
  const { tabId } = await ext.openTab('long.html');
  const popup = await ext.openPopup(tabId);
  await expect.poll(() => state(popup), { timeout: 30_000 }).toBe('playing');
  const helper = await ext.extensionPage();
  const session = () =>
    evaluate(helper, async () => {
      const bg = (await (globalThis as unknown as Ext).browser.runtime.getBackgroundPage()) as unknown as Bg;
      const s = bg.navigator.mediaSession;
      return { title: s.metadata?.title ?? '', state: s.playbackState };
    });
  const press = (action: string) =>
    evaluate(
      helper,
      async (a: string) => {
        const bg = (await (globalThis as unknown as Ext).browser.runtime.getBackgroundPage()) as unknown as Bg;
        bg.player.controls.press(a);
      },
      action,
    );
  await expect.poll(session).toEqual({ title: 'Статья для медиаклавиш', state: 'playing' });
  await press('pause');
  await expect.poll(() => state(popup)).toBe('paused');
  await press('play');
  await expect.poll(() => state(popup)).toBe('playing');
  const part = Number(await attr(popup, 'player', 'data-part'));
  await press('nexttrack');
  await expect.poll(() => attr(popup, 'player', 'data-part')).toBe(String(part + 1));
  await press('stop');
  await expect.poll(() => state(popup)).toBe('stopped');
});
