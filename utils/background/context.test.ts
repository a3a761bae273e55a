import { describe, expect, it, vi } from 'vitest';
import type { ReadingCommand } from '../messaging/protocol';
import type { ReadingView } from '../reading/state';
import { commandRunner, listen, viewListeners } from './context';

const VIEW = { id: 'r1', state: 'playing' } as ReadingView;

describe('viewListeners', () => {
  it('hands each view and its write to the features in the order they subscribed, until one unsubscribes', () => {
    const views = viewListeners();
    const seen: string[] = [];
    const written = Promise.resolve();
    views.add((view, w) => seen.push(`toolbar ${view.id} ${w === written}`));
    const leave = views.add(() => seen.push('mini-player'));
    views.add(() => seen.push('queue'));
    views.emit(VIEW, written);
    leave();
    views.emit(VIEW, written);
    expect(seen).toEqual(['toolbar r1 true', 'mini-player', 'queue', 'toolbar r1 true', 'queue']);
  });
});

describe('commandRunner', () => {
  it.each<[ReadingCommand, string, unknown[]]>([
    ['pause', 'pause', []],
    ['resume', 'resume', []],
    ['toggle', 'toggle', []],
    ['stop', 'stop', []],
    ['next', 'jump', [1]],
    ['prev', 'jump', [-1]],
    ['confirm', 'confirm', []],
  ])('%s → reader.%s(%j)', async (command, method, args) => {
    const reader = { pause: vi.fn(), resume: vi.fn(), toggle: vi.fn(), stop: vi.fn(), jump: vi.fn(), confirm: vi.fn() };
    await commandRunner(reader)(command);
    expect(reader[method as keyof typeof reader]).toHaveBeenCalledExactlyOnceWith(...args);
    const others = Object.entries(reader).filter(([name]) => name !== method);
    for (const [, fn] of others) expect(fn).not.toHaveBeenCalled();
  });
});

describe('listen', () => {
  it('removes the listener it added once the signal aborts', () => {
    const event = { addListener: vi.fn(), removeListener: vi.fn() };
    const listener = () => undefined;
    const feature = new AbortController();
    listen(feature.signal, event, listener);
    expect(event.addListener).toHaveBeenCalledExactlyOnceWith(listener);
    expect(event.removeListener).not.toHaveBeenCalled();
    feature.abort();
    expect(event.removeListener).toHaveBeenCalledExactlyOnceWith(listener);
  });
});
