/**
 * Media keys and the system's media controls: the offscreen player publishes the reading through the
 * Media Session API and hands its actions to the reader. No API presses a real media key, so the test
 * presses the handlers the player registered (kept by the test build), in the offscreen document.
 */
import { TargetEvaluator } from '../../bench/cdp.ts';
import { makeArticleHtml } from '../fixtures/make-article.ts';
import { expect, player, test } from './fixtures.ts';

test('the reading is in the media controls with its title and site; their play, pause, next, previous and stop drive it', async ({ ext, pages, context }) => {
  await ext.configure();
  pages.put('/long.html', makeArticleHtml(6_000, 'Статья для медиаклавиш'));
  const { tabId } = await ext.openTab('long.html');
  const popup = await ext.openPopup(tabId);
  await expect(player(popup)).toHaveAttribute('data-state', 'playing', { timeout: 30_000 });
  const offscreen = await TargetEvaluator.create(context);
  const session = () =>
    offscreen.evaluate<{ title: string; artist: string; state: string }>(
      '/offscreen.html',
      '({ title: navigator.mediaSession.metadata?.title ?? "", artist: navigator.mediaSession.metadata?.artist ?? "", state: navigator.mediaSession.playbackState })',
    );
  await expect.poll(session).toEqual({ title: 'Статья для медиаклавиш', artist: '127.0.0.1', state: 'playing' });
  const press = (action: string) => offscreen.evaluate('/offscreen.html', `player.controls.press(${JSON.stringify(action)})`);

  await press('pause');
  await expect(player(popup)).toHaveAttribute('data-state', 'paused');
  await expect.poll(async () => (await session())?.state).toBe('paused');
  await press('play');
  await expect(player(popup)).toHaveAttribute('data-state', 'playing');
  const part = Number(await player(popup).getAttribute('data-part'));
  await press('nexttrack');
  await expect(player(popup)).toHaveAttribute('data-part', String(part + 1));
  await press('previoustrack');
  await expect(player(popup)).toHaveAttribute('data-part', String(part));
  await press('stop');
  await expect(player(popup)).toHaveAttribute('data-state', 'stopped');
  await expect.poll(async () => (await session())?.state).toBe('none');
});
