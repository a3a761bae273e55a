import { defineBackground } from 'wxt/utils/define-background';
import { ignore } from '@/utils/log';
import { createReader, warmAuth } from '@/utils/reading/wiring';
import { loadTabTextState } from '@/utils/page-text/tab-text';
import { listeningQueue } from '@/utils/queue/queue-wiring';
import { type BackgroundContext, commandRunner, type Feature, viewListeners } from '@/utils/background/context';
import * as settings from '@/utils/background/settings';
import * as toolbar from '@/utils/background/toolbar';
import * as pageControls from '@/utils/background/page-controls';
import * as queue from '@/utils/background/queue';
import * as menus from '@/utils/background/menus';
import * as commands from '@/utils/background/commands';
import * as popup from '@/utils/background/popup';
import * as player from '@/utils/background/player';
import * as welcome from '@/utils/background/welcome';

/**
 * What the background does, one feature a file (utils/background/). The views reach the features that
 * follow them in this order: the toolbar's popup, the mini-player, the listening queue.
 */
const FEATURES: readonly Feature[] = [settings, toolbar, pageControls, queue, menus, commands, popup, player, welcome];

export default defineBackground({
  // Firefox (MV2): a persistent page, so the audio playing in it is never cut by an idle timeout.
  persistent: true,
  main,
});

function main() {
  // The key and the address are checked now, not at the first click.
  warmAuth();
  const views = viewListeners();
  const reader = createReader(player.playerSink((event) => void reader.onPlayerEvent(event)), views.emit);
  const listening = listeningQueue(reader);
  // Which pages have the extract script, read now rather than on the way to a first request.
  void loadTabTextState().catch(ignore('reading which pages have the extract script'));
  const ctx: BackgroundContext = { reader, ...listening, runCommand: commandRunner(reader), onView: views.add };
  // Never aborted here: it lets a test start a feature alone and end it.
  const { signal } = new AbortController();
  for (const feature of FEATURES) feature.init(signal, ctx);
}
