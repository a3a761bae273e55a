/** The listening queue: it follows the reading (the next entry once one ends), and the popup plays it, moves and removes entries. */
import { ignore } from '../log';
import { onPageMessage } from '../messaging/protocol';
import { type BackgroundContext, onAbort } from './context';

export function init(signal: AbortSignal, { queue, onView }: Pick<BackgroundContext, 'queue' | 'onView'>): void {
  onAbort(
    signal,
    onView((view) => void queue.onView(view).catch(ignore('the listening queue'))),
    onPageMessage('queue', ({ data }) => {
      if (data.action === 'play') return queue.play();
      if (data.action === 'move') return queue.move(data.id, data.delta);
      return queue.remove(data.id);
    }),
  );
}
