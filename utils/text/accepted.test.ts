import { describe, expect, it } from 'vitest';
import { countLetters, isPlainCode, makeAcceptableFully, makeAcceptable } from './accepted';

/** Every letter the service would see is Russian or basic Latin. */
const ONLY_ACCEPTED_LETTERS = /^(?:[^\p{L}]|[A-Za-zА-Яа-яЁё])*$/u;

describe('makeAcceptable: text that is already acceptable', () => {
  it.each([
    ['Russian with ё and й', 'Ёжик в тумане. Йогурт, йод и её подъезд!'],
    ['English', "Mr. Smith didn't go to London on 12/03/2024 (really)."],
    ['digits, punctuation, symbols', '1 + 2 = 3; 50 % — «цитата», № 7, © ™ ♥ ☺ § $ € ₽ → ∞'],
    ['newlines, tabs and doubled spaces', 'Строка  один\n\n\tСтрока два  \r\nТри'],
    ['Cyrillic quotes and dashes', '„Да“ — сказал он — «нет».'],
    ['Chinese punctuation around accepted words', 'Он сказал 「Москва」 и 『Лондон』。'],
    ['empty', ''],
    ['whitespace only', '  \n\t \n '],
  ])('%s stays as it is', (_name, text) => {
    expect(makeAcceptable(text)).toEqual({ text, skippedWords: 0, skipped: [] });
  });

  it.each([
    ['й decomposed (и + U+0306)', 'и\u0306од', 'йод'],
    ['Й decomposed', 'И\u0306ошкар-Ола', 'Йошкар-Ола'],
    ['ё decomposed (е + U+0308)', 'е\u0308лка', 'ёлка'],
    ['Ё decomposed', 'Е\u0308мкость', 'Ёмкость'],
  ])('keeps Russian letters whole: %s', (_name, input, expected) => {
    const result = makeAcceptable(input);
    expect(result.text).toBe(expected);
    expect(result.text).toBe(result.text.normalize('NFC'));
  });
});

describe('makeAcceptable: folding', () => {
  it.each([
    ['German', 'Café Müller straße', 'Cafe Muller strasse'],
    ['capitals', 'ÉCOLE ÜBER ÅSE ÇA ÑANDÚ', 'ECOLE UBER ASE CA NANDU'],
    ['decomposed accents', 'Cafe\u0301 nin\u0303o', 'Cafe nino'],
    ['Nordic and Slavic Latin', 'Ærø Øresund Łódź Þórður Đorđe ðú', 'Aero Oresund Lodz Thordur Dorde du'],
    ['ligatures', 'œuvre Œdipe Æsir æther', 'oeuvre Oedipe Aesir aether'],
    ['sharp s', 'Fußball STRAẞE', 'Fussball STRASSE'],
    ['Turkish i', 'İstanbul ılık', 'Istanbul ilik'],
    ['Vietnamese', 'Nguyễn Phở Đà Nẵng', 'Nguyen Pho Da Nang'],
    ['compatibility forms', 'ﬁnal Ｆｕｌｌ ǅamija', 'final Full Dzamija'],
    ['Ukrainian', 'Київ, Європа, ґанок, Іван', 'Кийив, Европа, ганок, Иван'],
    ['Belarusian', 'Беларусь: Ўсход і захад', 'Беларусь: Усход и захад'],
    ['Serbian', 'Љубљана, Њујорк, Ђорђе, Ћуприја, Џон, Јован', 'Льубльана, Ньуйорк, Дьордье, Чуприйа, Джон, Йован'],
    ['Kazakh', 'Қазақстан, Өскемен, Әлем', 'Казакстан, Оскемен, Алем'],
    ['modifier apostrophe', 'мʼясо, Hawaiʻi', "м'ясо, Hawai'i"],
    ['stress marks on Russian', 'Москва́ — го́род', 'Москва — город'],
    ['stray marks on Latin without a composed form', 'q\u0303 x\u0323', 'q x'],
    ['a mark alone at the start', '\u0301слово', 'слово'],
  ])('%s', (_name, input, expected) => {
    const result = makeAcceptable(input);
    expect(result).toEqual({ text: expected, skippedWords: 0, skipped: [] });
    expect(result.text).toMatch(ONLY_ACCEPTED_LETTERS);
  });
});

describe('makeAcceptable: words in refused scripts', () => {
  it.each<[string, string, string, string[]]>([
    ['Greek in a Russian sentence', 'Город Афины (по-гречески Ἀθῆναι) — столица.', 'Город Афины (по-гречески) — столица.', ['Ἀθῆναι']],
    ['Greek in parentheses leaves no empty brackets', 'Афины (Ἀθῆναι) — столица.', 'Афины — столица.', ['Ἀθῆναι']],
    ['Greek in guillemets', 'Слово «λόγος» значит слово.', 'Слово значит слово.', ['λόγος']],
    ['Chinese characters, one run counts once', 'Китай (中华人民共和国) и 中文 тоже.', 'Китай и тоже.', ['中华人民共和国', '中文']],
    ['Chinese inside Chinese quotes', 'Он сказал 「引用」 и ушёл.', 'Он сказал и ушёл.', ['引用']],
    ['Hebrew (RTL)', 'Слово שלום значит мир.', 'Слово значит мир.', ['שלום']],
    ['Arabic (RTL) at both ends', 'مرحبا привет مرحبا', 'привет', ['مرحبا', 'مرحبا']],
    ['Armenian and Georgian', 'Ереван (Երևան) и Тбилиси (თბილისი).', 'Ереван и Тбилиси.', ['Երևան', 'თბილისი']],
    ['no space before punctuation', 'Это слово 中文, а это 日本語.', 'Это слово, а это.', ['中文', '日本語']],
    ['a word mixing scripts goes whole', 'Зевс Ζeus и всё.', 'Зевс и всё.', ['Ζeus']],
    ['IPA transcription', 'Москва [mɐˈskva] — город.', 'Москва — город.', ['mɐˈskva']],
    ['micro and ohm signs are Greek letters', '5 µm и 10 Ω.', '5 и 10.', ['µm', 'Ω']],
    ['skipped words are reported unfolded', 'Тут ʃəʊ.', 'Тут.', ['ʃəʊ']],
    ['refused text only', 'Ἀθῆναι', '', ['Ἀθῆναι']],
  ])('%s', (_name, input, expected, skipped) => {
    const result = makeAcceptable(input);
    expect(result.text).toBe(expected);
    expect(result.skipped).toEqual(skipped);
    expect(result.skippedWords).toBe(skipped.length);
    expect(result.text).toMatch(ONLY_ACCEPTED_LETTERS);
  });

  it.each([
    ['line start keeps indentation', '  中文 слово\nконец', '  слово\nконец'],
    ['line end leaves no trailing space', 'слово 中文  \nконец', 'слово\nконец'],
    ['a line of refused words becomes empty', 'раз\nשלום עולם\nдва', 'раз\n\nдва'],
    ['CRLF line ends', 'раз Ἀθῆναι\r\nдва', 'раз\r\nдва'],
    ['tab between words is kept', 'раз\tἈθῆναι два', 'раз\tдва'],
    ['a word glued between accepted words', 'Zeus中文Athens', 'Zeus Athens'],
    ['a word glued after a hyphen', 'Кафе-Ἀθῆναι', 'Кафе-'],
  ])('keeps whitespace structure: %s', (_name, input, expected) => {
    expect(makeAcceptable(input).text).toBe(expected);
  });
});

describe('makeAcceptable: emoji and invisible characters', () => {
  it.each([
    ['between words', 'Привет 👍 мир', 'Привет мир'],
    ['with skin tone', 'Привет 👍🏽 мир', 'Привет мир'],
    ['ZWJ family', 'Семья 👨‍👩‍👧‍👦 дома', 'Семья дома'],
    ['flag', 'Россия 🇷🇺!', 'Россия!'],
    ['tag-sequence flag', 'Шотландия 🏴󠁧󠁢󠁳󠁣󠁴󠁿 далеко', 'Шотландия далеко'],
    ['heart with variation selector', 'Люблю ❤️ тебя', 'Люблю тебя'],
    ['glued between two words', 'Привет👍мир', 'Привет мир'],
    ['glued to punctuation', 'Ура!🎉', 'Ура!'],
    ['several in a row', 'Ура 🎉🎉 🎉 ура', 'Ура ура'],
    ['keycap keeps its digit', 'Шаг 1️⃣ и #️⃣', 'Шаг 1 и #'],
    ['text-style symbols stay', 'Знаки © ® ™ ♥ ☺ ✈', 'Знаки © ® ™ ♥ ☺ ✈'],
    ['soft hyphen and zero-width space', 'при\u00ADвет\u200B мир\u2060', 'привет мир'],
    ['bidi marks and BOM', '\uFEFF\u200Eслово\u200F', 'слово'],
    ['control characters', 'раз\u0000два\u0007', 'раздва'],
    ['private-use icon', 'Меню \uE001 открыть', 'Меню открыть'],
    ['lone surrogate', 'раз\uD800два', 'раздва'],
  ])('%s', (_name, input, expected) => {
    expect(makeAcceptable(input)).toEqual({ text: expected, skippedWords: 0, skipped: [] });
  });
});

describe('makeAcceptable: long input', () => {
  it('handles a long run without whitespace in windows and still removes refused words', () => {
    const run = `${'а'.repeat(2_500)}/${'中'.repeat(10)}/${'b'.repeat(2_500)}`;
    const result = makeAcceptable(run);
    expect(result.text).toBe(`${'а'.repeat(2_500)}//${'b'.repeat(2_500)}`);
    expect(result.skipped).toEqual(['中'.repeat(10)]);
  });

  it('makes a 200,000-character mixed text acceptable', () => {
    const sentence = 'Афины (Ἀθῆναι) — Café Müller 👍 и Київ. ';
    const result = makeAcceptable(sentence.repeat(5_000));
    expect(result.skippedWords).toBe(5_000);
    expect(result.text === 'Афины — Cafe Muller и Кийив. '.repeat(5_000)).toBe(true);
    expect(result.text).toMatch(ONLY_ACCEPTED_LETTERS);
  });
});

describe('makeAcceptable: the shortcut for plain prose', () => {
  // Every character the shortcut lets through, alone, between letters, after a full stop and in pairs
  // with its neighbours: the full path must give the same text and skip nothing.
  const plain = Array.from({ length: 0x10000 }, (_, c) => c).filter(isPlainCode);
  it('is taken only for characters the full path leaves as they are', () => {
    expect(plain.length).toBeGreaterThan(200);
    for (const c of plain) {
      const ch = String.fromCharCode(c);
      for (const text of [ch, `аб${ch}вг`, `Конец.${ch} Начало`, `${ch}${String.fromCharCode(plain[(c * 7) % plain.length]!)}`]) {
        expect([c.toString(16), makeAcceptableFully(text)]).toEqual([c.toString(16), { text, skippedWords: 0, skipped: [] }]);
        expect(makeAcceptable(text)).toEqual(makeAcceptableFully(text));
      }
    }
  });
  it.each([
    ['Привет, мир — «это» тест № 5…', true],
    ['Київ', false],
    ['café', false],
    ['a\u00adb', false],
    ['x\u200by', false],
    ['hi 👍', false],
  ])('%s: plain %s, and the same either way', (text, isPlain) => {
    expect([...text].every((ch) => isPlainCode(ch.charCodeAt(0)) && ch.length === 1)).toBe(isPlain);
    expect(makeAcceptable(text)).toEqual(makeAcceptableFully(text));
  });
});

describe('countLetters', () => {
  it.each([
    ['', 0],
    ['Привет, world!', 11],
    ['Ёжик ёлка', 8],
    ['Київ 2024', 4],
    ['日本語', 3],
    ['𝐀𝐁 ab', 4], // letters outside the BMP count once each
    ['\ud835 a', 1], // a lone surrogate is no letter
    ['— «» 123 …', 0],
  ])('%s → %i', (text, n) => {
    expect(countLetters(text)).toBe(n);
    expect(countLetters(text)).toBe(text.match(/\p{L}/gu)?.length ?? 0);
  });
});
