import { describe, expect, it } from 'vitest';
import { ScrollWatch } from './scroll-watch';

type Step = ['look', number, number, boolean] | ['send', number, number, number];

/** Each row: what happened, in order; a look gives the position and the time, and whether someone else moved the page. */
describe('telling our scrolling from the user’s by where the page is', () => {
  it.each<[string, Step[]]>([
    ['the first look knows nothing yet', [['look', 900, 0, false]]],
    ['the page left where it was', [['look', 900, 0, false], ['look', 900, 50, false], ['look', 901, 100, false]]],
    ['the user scrolled up before their wheel event came (the flaky test)', [['look', 1500, 0, false], ['look', 0, 50, true]]],
    ['the user scrolled down', [['look', 0, 0, false], ['look', 400, 50, true]]],
    ['our smooth scroll on its way and arrived', [['look', 0, 0, false], ['send', 0, 1200, 10], ['look', 300, 60, false], ['look', 1100, 300, false], ['look', 1200, 500, false], ['look', 1200, 550, false]]],
    ['the user turned our scroll back', [['look', 0, 0, false], ['send', 0, 1200, 10], ['look', 600, 60, false], ['look', 200, 110, true]]],
    ['the user moved the page after ours arrived', [['look', 0, 0, false], ['send', 0, 1200, 10], ['look', 1200, 400, false], ['look', 700, 450, true]]],
    ['past where ours was going', [['look', 0, 0, false], ['send', 0, 1200, 10], ['look', 1500, 60, true]]],
    ['ours stopped short (taken over) is where the page stays', [['look', 0, 0, false], ['send', 0, 1200, 10], ['look', 500, 3000, false], ['look', 800, 3050, true]]],
  ])('%s', (_name, steps) => {
    const watch = new ScrollWatch();
    for (const step of steps) {
      if (step[0] === 'send') watch.scrolled(step[1], step[2], step[3]);
      else expect(watch.movedByOther(step[1], step[2]), `look at ${step[1]} px, ${step[2]} ms`).toBe(step[3]);
    }
  });

  it('says when a scroll of ours is on its way, so none is added to it', () => {
    const watch = new ScrollWatch();
    watch.movedByOther(0, 0);
    expect(watch.underWay).toBe(false);
    watch.scrolled(0, 1200, 10);
    watch.movedByOther(300, 60);
    expect(watch.underWay).toBe(true);
    watch.movedByOther(1200, 400);
    expect(watch.underWay).toBe(false);
  });

  it('forgets the page for a new reading', () => {
    const watch = new ScrollWatch();
    watch.movedByOther(1500, 0);
    watch.forget();
    expect(watch.movedByOther(0, 50)).toBe(false);
  });
});
