import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { blocksOf as textBlocksOf } from '../text/extract';
import { syncClickToRead, type ScriptRegistry } from '../page-text/page-scripts';
import { blockAt, blocksOf, latestEachFrame } from './click-to-read';

/** The blocks of an article body, as click-to-read maps them to the page's elements. */
function page(html: string) {
  const { document } = parseHTML(`<html><body><div id="root">${html}</div></body></html>`);
  const found = textBlocksOf(document.getElementById('root') as unknown as Element, (n) => n);
  const blocks = blocksOf({ text: { title: '', source: 'article', blocks: found.blocks }, segments: found.segments });
  return { document, blocks };
}

describe('the block under the pointer', () => {
  it.each([
    ['a paragraph', '<p id="t">Первый абзац.</p><p>Второй.</p>', 0],
    ['a link inside the second paragraph', '<p>Первый.</p><p>Второй <a id="t" href="/x">абзац</a> со ссылкой.</p>', 1],
    ['emphasis inside a list item', '<h2>Заголовок</h2><ul><li>один</li><li>два <em id="t">три</em></li></ul>', 2],
    ['the article container itself (between blocks)', '<div id="t"><p>Один.</p><p>Два.</p></div>', -1],
  ])('%s', (_name, html, expected) => {
    const { document, blocks } = page(html);
    expect(blockAt(blocks, document.getElementById('t') as unknown as Element)).toBe(expected);
  });

  it('each block starts at its own first words', () => {
    const { blocks } = page('<h2>Заголовок</h2><p>Первый <b>абзац</b>.</p>');
    expect(blocks.starts.map((n) => n.textContent)).toEqual(['Заголовок', 'Первый ']);
  });
});

describe('the click-to-read script follows the option', () => {
  const registry = (registered: boolean) => {
    const calls: string[] = [];
    const scripting: ScriptRegistry = {
      getRegisteredContentScripts: async () => (registered ? [{ id: 'click-to-read' }] : []),
      registerContentScripts: async (s) => void calls.push(`register ${s[0]!.id} ${s[0]!.matches.join(' ')}`),
      updateContentScripts: async (s) => void calls.push(`update ${s[0]!.id} ${s[0]!.runAt}`),
      unregisterContentScripts: async (f) => void calls.push(`unregister ${f.ids.join(' ')}`),
    };
    return { calls, scripting };
  };
  it.each([
    [true, false, ['register click-to-read https://*/* http://*/*']],
    [true, true, ['update click-to-read document_end']],
    [false, true, ['unregister click-to-read']],
    [false, false, []],
  ])('on=%s, registered before=%s', async (on, before, expected) => {
    const { calls, scripting } = registry(before);
    await syncClickToRead(scripting, on);
    expect(calls).toEqual(expected);
  });
});

describe('where the pointer is, worked out once a frame', () => {
  // `|` is a frame: the places the pointer came to between two frames, and what each frame works out.
  it.each([
    ['one place', 'p3 |', ['p3']],
    ['a paragraph, then off the article within the frame: off', 'p3 html |', ['html']],
    ['off, then onto a paragraph within the frame: the paragraph', 'html p3 |', ['p3']],
    ['a sweep over three paragraphs: the last', 'p1 p2 p3 |', ['p3']],
    ['one place a frame', 'p1 | p2 | html |', ['p1', 'p2', 'html']],
    ['no frame yet: nothing', 'p1 p2', []],
    ['a frame with no move in it: nothing more', 'p1 | |', ['p1']],
  ])('%s', (_name, script, expected) => {
    const frames: Array<() => void> = [];
    const handled: string[] = [];
    const pointedAt = latestEachFrame<string>((run) => frames.push(run), (place) => handled.push(place));
    for (const step of script.split(' ')) {
      if (step === '|') frames.splice(0).forEach((run) => run());
      else pointedAt(step);
    }
    expect(handled).toEqual(expected);
  });
});
