import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { coveredByPage, lookOf, Settling } from './guarded-ui';

describe("click-to-read's ▶ acts only once settled: seen still and uncovered for 500 ms", () => {
  const at = (left: number, top = 100, visible = true) => lookOf({ rect: { left, top, width: 22, height: 22 }, visible });
  it.each<[string, Array<[look: string, ms: number, covered: boolean]>, boolean]>([
    ['pressed as it appears', [[at(10), 0, false]], false],
    ['pressed 600 ms after it appeared, where it was', [[at(10), 0, false], [at(10), 300, false], [at(10), 600, false]], true],
    ['moved under the pointer just before the press', [[at(10), 0, false], [at(10), 600, false], [at(40), 700, false], [at(40), 800, false]], false],
    ['moved, then still for 500 ms', [[at(10), 0, false], [at(40), 700, false], [at(40), 1_250, false]], true],
    ['a sub-pixel jiggle is no move', [[at(10), 0, false], [at(10.2), 600, false]], true],
    ['hidden and shown again in the same place', [[at(10), 0, false], [at(10, 100, false), 300, false], [at(10), 600, false]], false],
    ['drawn over by the page', [[at(10), 0, false], [at(10), 600, true]], false],
    ['uncovered again', [[at(10), 0, false], [at(10), 600, true], [at(10), 700, false]], true],
  ])('%s → %s', (_n, looks, acts) => {
    const settling = new Settling(500);
    let ok = false;
    for (const [look, ms, covered] of looks) ok = settling.see(look, ms, covered);
    expect(ok).toBe(acts);
  });
});

describe('something of the page drawn over a control', () => {
  /** linkedom lays nothing out: each element's box is given by its `data-box` (left,top,width,height). */
  function pageWith(html: string) {
    const { document } = parseHTML(`<html><body><p>Текст.</p></body></html>`);
    const host = document.createElement('trysasha-click');
    const box = document.createElement('button');
    box.setAttribute('data-box', '10,10,22,22');
    host.append(box);
    document.documentElement.append(host);
    document.documentElement.insertAdjacentHTML('beforeend', html);
    const rectOf = (el: Element) => {
      const [left, top, width, height] = (el.getAttribute('data-box') ?? '0,0,0,0').split(',').map(Number) as [number, number, number, number];
      return { left, top, width, height, right: left + width, bottom: top + height, x: left, y: top, toJSON: () => ({}) };
    };
    for (const el of [host, box, ...document.querySelectorAll('*')]) (el as Element & { getBoundingClientRect(): DOMRect }).getBoundingClientRect = () => rectOf(el) as DOMRect;
    return { document, host, box };
  }
  it.each([
    ['nothing after it', '', false],
    ['a box the page put after it, over it (clicks pass through it)', '<div data-box="0,0,50,50" style="pointer-events:none"></div>', true],
    ['a box the page put after it, elsewhere', '<div data-box="200,200,50,50"></div>', false],
    ['something inside a later box, over it', '<div data-box="500,500,1,1"><span data-box="15,15,5,5"></span></div>', true],
  ])('%s → %s', (_n, html, covered) => {
    const { document, host, box } = pageWith(html);
    expect(coveredByPage(box, host, document as unknown as Document)).toBe(covered);
  });
});
