import { describe, expect, it } from 'vitest';
import { ALWAYS, MAX_NESTING, MAX_SELECTOR_CHARS, MAX_SELECTORS, MAX_STYLE_CHARS, MAYBE, readDeclarations, readSheets, type Rule, type Said } from './css-rules';

const says = (name: string, d: Said | undefined) => (d ? [`${name} ${d.hides ? 'hides' : 'shows'}${d.important ? '!' : ''}`] : []);

/** A rule as `selectors: what it says`, `(maybe)` when under a condition: `.a, .b: display hides!`. */
const describeRule = (r: Rule) =>
  `${r.selectors.map((s) => s.text).join(', ')}: ${[...says('display', r.said[0]), ...says('visibility', r.said[1])].join(', ')}${r.media === MAYBE ? ' (maybe)' : ''}`;

/** The rules read from one `<style>` of `css`, described; null past a cap. */
function read(css: string, media = ''): string[] | null {
  return readSheets([{ css, media }])?.map(describeRule) ?? null;
}

describe('readSheets: the rules of a page’s `<style>` text', () => {
  it.each<[string, string, string[]]>([
    ['a class rule', '.hidden { display: none }', ['.hidden: display hides']],
    ['case, !important, a list', '.box .inner, main > .ad { DISPLAY: NONE !important }', ['.box .inner, main > .ad: display hides!']],
    ['visibility: hidden and collapse hide, visible shows', '#a{visibility:hidden} .b{visibility:collapse} .c{visibility:visible}', ['#a: visibility hides', '.b: visibility hides', '.c: visibility shows']],
    ['a rule that sets neither is not kept', '.x{color:red} .y{display:block;visibility:hidden}', ['.y: display shows, visibility hides']],
    ['the last declaration wins, unless an earlier one is !important', '.a{display:none;display:block} .b{display:none!important;display:block} .c{display:block;display:none!IMPORTANT}', ['.a: display shows', '.b: display hides!', '.c: display hides!']],
    ['any value but none may show; an empty one is no declaration', '.a{display:var(--d)} .b{display:nonesuch} .c{display:}', ['.a: display shows', '.b: display shows']],
    ['@media: screen and all surely, print never, a condition maybe', '@media screen{.s{display:none}} @media only all{.a{display:none}} @media print, screen{.p{display:none}} @media print{.n{display:none}} @media (max-width:600px){.m{display:none}} @media screen and (min-width:1px){.w{display:none}}', ['.s: display hides', '.a: display hides', '.p: display hides', '.m: display hides (maybe)', '.w: display hides (maybe)']],
    ['@layer is read, @supports and @container are conditions, @keyframes and @font-face hold no rules', '@layer base{.l{display:none}} @supports (display:grid){.g{display:none}} @container (width > 1px){.c{display:none}} @keyframes k{from{display:none}} @font-face{font-family:x}', ['.l: display hides', '.g: display hides (maybe)', '.c: display hides (maybe)']],
    ['a condition inside @layer stays one, print inside it is never', '@layer a{@media (min-width:1px){.x{display:block}} @media print{.y{display:none}}}', ['.x: display shows (maybe)']],
    ['statements and a stray brace are passed over', '} @import url(a.css); @layer a, b; .x{display:none}', ['.x: display hides']],
    ['comments: a commented rule is not read, a comment inside a value is', '/* .c{display:none} */ .d{display:/* x */none} .e::after{content:"/*"} .f{display:none}', ['.d: display hides', '.f: display hides']],
    ['a sheet wrapped in <!-- --> (old pages)', '<!-- .old { display: none } -->', ['.old: display hides']],
    ['a nested rule (CSS nesting) is passed over, its parent read', '.a { color: red; .b { display: none } } .c { display: none }', ['.c: display hides']],
    ['a sheet that ends inside a rule closes it', '.x{display:none', ['.x: display hides']],
    ['display in another property or in a string is not display', '.x{--display:none} .y{content:"display:none"} .z{content:"}"; display:none}', ['.z: display hides']],
  ])('%s', (_name, css, rules) => {
    expect(read(css)).toEqual(rules);
  });

  it('rules are numbered in page order, across sheets', () => {
    const rules = readSheets([{ css: '.a{display:none} .b{color:red} .c{display:block}', media: '' }, { css: '.d{visibility:hidden}', media: '' }])!;
    expect(rules.map((r) => [r.selectors[0]!.text, r.order])).toEqual([['.a', 0], ['.c', 1], ['.d', 2]]);
  });

  it.each<[string, 'always' | 'maybe' | 'never']>([
    ['', 'always'],
    ['all', 'always'],
    ['screen', 'always'],
    ['only screen', 'always'],
    ['not print', 'always'],
    ['print, screen', 'always'],
    ['PRINT', 'never'],
    ['speech', 'never'],
    ['not screen', 'never'],
    ['(min-width: 768px)', 'maybe'],
    ['screen and (hover)', 'maybe'],
    ['not all and (monochrome)', 'maybe'],
  ])('a <style media="%s"> applies on a screen: %s', (media, applies) => {
    const rules = readSheets([{ css: '.x{display:none}', media }])!;
    expect(rules.length ? (rules[0]!.media === ALWAYS ? 'always' : 'maybe') : 'never').toBe(applies);
  });
});

describe('the selectors of a rule: as applied, skipped, or dropping it', () => {
  it.each<[string, number, string | null]>([
    ['p', 1, 'p'],
    ['.a', 1e3, '.a'],
    ['#a', 1e6, '#a'],
    ['P.Note', 1e3 + 1, '.Note'],
    ['div#main .item', 1e6 + 1e3 + 1, '.item'],
    ['.a > p', 1e3 + 1, 'p'],
    ['#a *', 1e6, null],
    ['[data-x="a b"]', 1e3, null],
    ['.max-md\\:hidden', 1e3, '.max-md:hidden'],
    ['.\\31 0', 1e3, '.10'],
    [':not(.a, #b)', 1e6, null],
    [':is(p, .a)', 1e3, null],
    [':where(#a) .b', 1e3, '.b'],
    ['li:nth-child(2n+1)', 1e3 + 1, 'li'],
    [':root', 1e3, null],
    ['p:lang(en)', 1e3 + 1, 'p'],
    ['*', 0, null],
  ])('%s: specificity %d, its subject has %s', (selector, spec, key) => {
    const [rule] = readSheets([{ css: `${selector}{display:none}`, media: '' }])!;
    expect(rule!.selectors).toEqual([{ text: selector, spec, key }]);
  });

  it.each<[string, 'skipped' | 'drops its rule']>([
    ['a::before', 'skipped'],
    ['.b:after', 'skipped'],
    ['.menu:hover', 'skipped'],
    ['.tip:focus-within .x', 'skipped'],
    ['li:nth-child(2n of .x)', 'skipped'],
    [':is(:is(:is(:is(:is(.a)))))', 'skipped'],
    ['& .a', 'skipped'],
    ['svg|rect', 'skipped'],
    ['.b)', 'drops its rule'],
    ['', 'drops its rule'],
    ['.', 'drops its rule'],
    ['p:lang', 'drops its rule'],
    ['p:first-child(2)', 'drops its rule'],
  ])('"%s": %s', (selector, fate) => {
    expect(read(`${selector}, .other { display: none }`)).toEqual(fate === 'skipped' ? ['.other: display hides'] : []);
  });
});

describe('readDeclarations: an element’s style attribute', () => {
  it.each<[string, string[]]>([
    ['  DISPLAY :  None ; color: red', ['display hides']],
    ['display:none!IMPORTANT', ['display hides!']],
    ['display:/* not yet */none', ['display hides']],
    ['color:red;visibility:hidden', ['visibility hides']],
    ['display:none !important; display:block', ['display hides!']],
    ['display:inline-block; visibility:visible', ['display shows', 'visibility shows']],
  ])('%s', (style, said) => {
    const [display, visibility] = readDeclarations(style);
    expect([...says('display', display), ...says('visibility', visibility)]).toEqual(said);
  });
});

describe('the caps hold', () => {
  const classes = (n: number) => Array.from({ length: n }, (_, i) => `.c${i}`).join(',');
  const selectorsRead = (css: string) => readSheets([{ css, media: '' }])?.map((r) => r.selectors.length) ?? null;
  it.each<[string, () => unknown, unknown]>([
    ['style text past MAX_STYLE_CHARS, the sheets together: none read', () => readSheets([{ css: '.a{display:none}', media: '' }, { css: ' '.repeat(MAX_STYLE_CHARS), media: '' }]), null],
    ['a sheet not read (print) is not counted', () => readSheets([{ css: ' '.repeat(MAX_STYLE_CHARS + 1), media: 'print' }, { css: '.a{display:none}', media: '' }])!.map(describeRule), ['.a: display hides']],
    ['MAX_SELECTORS selectors are read', () => selectorsRead(`${classes(MAX_SELECTORS)}{display:none}`), [MAX_SELECTORS]],
    ['one more: none read', () => selectorsRead(`.a{display:none} ${classes(MAX_SELECTORS)}{display:none}`), null],
    ['only selectors of rules that set display or visibility count', () => selectorsRead(`${classes(MAX_SELECTORS + 1)}{color:red} .a{display:none}`), [1]],
    ['a selector longer than MAX_SELECTOR_CHARS is not applied, the rest of its list is', () => read(`.${'a'.repeat(MAX_SELECTOR_CHARS)}, .b{display:none}`), ['.b: display hides']],
    ['at-rules nested MAX_NESTING deep are read', () => read(`${'@media screen{'.repeat(MAX_NESTING)}.in{display:none}${'}'.repeat(MAX_NESTING)}`), ['.in: display hides']],
    ['one deeper are not', () => read(`${'@media screen{'.repeat(MAX_NESTING + 1)}.in{display:none}${'}'.repeat(MAX_NESTING + 1)}`), []],
    ['at-rules nested 50,000 deep: the rules after them are read', () => read(`${'@media screen {'.repeat(50_000)}.deep{display:none}${'}'.repeat(50_000)} .top{display:none}`), ['.top: display hides']],
    ['a sheet of unclosed parentheses', () => read(`.top{display:none} .a${'('.repeat(200_000)}{display:none}`), ['.top: display hides']],
    ['a sheet of 200,000 empty declarations', () => read(`.top{display:none} .a{${';'.repeat(200_000)}color:red}`), ['.top: display hides']],
  ])('%s', (_name, run, expected) => {
    expect(run()).toEqual(expected);
  });
});
