import { describe, expect, it } from 'vitest';
import { isSiteName, siteFreeTitle, type SiteNames } from './site-title';

describe("siteFreeTitle: a page's title without its site's name and sections", () => {
  it.each<[string, SiteNames, string]>([
    // The site's part after each separator, in Russian and English.
    ['Лукашенко тайно вступил в должность — «Вести Приозерья», городской портал', {}, 'Лукашенко тайно вступил в должность'],
    ['Лукашенко тайно вступил в должность — «Вести Приозерья», городской портал', { siteName: 'Вести Приозерья' }, 'Лукашенко тайно вступил в должность'],
    ['Отрезать голову во имя пророка | В мире | Политика | Аргументы и Факты', {}, 'Отрезать голову во имя пророка'],
    [
      'Отрезать голову во имя пророка. Теракт во Франции обнажил старые проблемы | В мире | Политика | Аргументы и Факты',
      { host: 'aif.ru' },
      'Отрезать голову во имя пророка. Теракт во Франции обнажил старые проблемы',
    ],
    ['Оренбургским чиновникам купят еще пять автомобилей - МК Рязань', { siteName: 'МК Рязань' }, 'Оренбургским чиновникам купят еще пять автомобилей'],
    ['Оренбургским чиновникам купят еще пять автомобилей - МК Оренбург', { host: 'oren.mk.ru' }, 'Оренбургским чиновникам купят еще пять автомобилей'],
    ['Парламент Молдовы ограничил полномочия Санду – новости на УНН', {}, 'Парламент Молдовы ограничил полномочия Санду'],
    [
      'Парламент Молдовы, "с подачи Додона" - ограничил полномочия Санду еще до ее инаугурации – новости на УНН | 3 декабря 2020, 18:47',
      {},
      'Парламент Молдовы, "с подачи Додона" - ограничил полномочия Санду еще до ее инаугурации',
    ],
    ['Движение по ЦКАД-5 открывается от Можайского до Новорижского шоссе - Москва - ТАСС', { siteName: 'ТАСС' }, 'Движение по ЦКАД-5 открывается от Можайского до Новорижского шоссе'],
    ['Поездка с Apple Maps • Umputun тут был', { host: 'p.umputun.com' }, 'Поездка с Apple Maps'],
    ['Как устроен поиск по коду :: Хабр', {}, 'Как устроен поиск по коду'],
    ['Новый мост через Обь откроют весной · Новости Новосибирска', {}, 'Новый мост через Обь откроют весной'],
    ['Ученые нашли воду на Марсе / Наука / Lenta.ru', { host: 'lenta.ru' }, 'Ученые нашли воду на Марсе'],
    ['Главные новости дня » Политика » Газета.Ru', {}, 'Главные новости дня'],
    ['Обзор смартфона за 10 000 рублей > Обзоры > iXBT', {}, 'Обзор смартфона за 10 000 рублей'],
    ['Brexit: What happens next? - BBC News', { siteName: 'BBC News' }, 'Brexit: What happens next?'],
    ['Brexit: What happens next? - BBC News', {}, 'Brexit: What happens next?'],
    ['Zuckerberg offers peek at Facebook\'s acquisition strategies - CNET', { siteName: 'CNET' }, "Zuckerberg offers peek at Facebook's acquisition strategies"],
    ["'What is the sea telling us?': Māori tribes fearful over whale strandings | Eleanor Ainge Roy | Environment | The Guardian", { siteName: 'the Guardian' }, "'What is the sea telling us?': Māori tribes fearful over whale strandings"],
    ['Get your Frontend JavaScript Code Covered | Code | Nicolas Perriault', {}, 'Get your Frontend JavaScript Code Covered'],
    ['Lupita Nyong\'o\'s $150K Pearl Oscar Dress -- STOLEN!!! | TMZ.com', { host: 'www.tmz.com' }, "Lupita Nyong'o's $150K Pearl Oscar Dress -- STOLEN!!!"],
    ['Inside the Deep Web Drug Lab — Backchannel — Medium', { siteName: 'Medium' }, 'Inside the Deep Web Drug Lab'],
    ['Screenshot : «Vape Wave», «6 Days», «Alphonse Président»… - Culture / Next', {}, 'Screenshot : «Vape Wave», «6 Days», «Alphonse Président»…'],
    ['Outside the web: standalone WebAssembly binaries using Emscripten · V8', { host: 'v8.dev' }, 'Outside the web: standalone WebAssembly binaries using Emscripten'],
    ['Raspberry Pi 3 - The credit card sized PC that cost only $35 - All-time bestselling computer in UK - SimplyFound', {}, 'Raspberry Pi 3 - The credit card sized PC that cost only $35 - All-time bestselling computer in UK'],
    // The site's name before the title, set apart by a colon or otherwise: only when it is the site's name.
    ['Silicon Exposed: Open Verilog flow for Silego GreenPak4 programmable logic devices', { host: 'siliconexposed.blogspot.tw' }, 'Open Verilog flow for Silego GreenPak4 programmable logic devices'],
    ['Daring Fireball: Colophon', { host: 'daringfireball.net' }, 'Colophon'],
    ['Хабр | Как устроен поиск по коду', { siteName: 'Хабр' }, 'Как устроен поиск по коду'],
    ['BBC News - Brexit: What happens next?', { siteName: 'BBC News' }, 'Brexit: What happens next?'],
    // A colon inside a headline stays, whatever stands before it.
    ['Brexit: what next', {}, 'Brexit: what next'],
    ['Brexit: what next', { siteName: 'BBC News', host: 'www.bbc.co.uk' }, 'Brexit: what next'],
    ['Мосты: как их строят зимой в Сибири', {}, 'Мосты: как их строят зимой в Сибири'],
    ['Путин : итоги года', {}, 'Путин : итоги года'],
    // A headline's own dash, when the part after it is the longest, or long.
    ['Apple - iPhone 15 review and first impressions', {}, 'Apple - iPhone 15 review and first impressions'],
    ['Путин - человек года', {}, 'Путин - человек года'],
    ['Friday Facts #282 - 0.17 in sight | Factorio', {}, 'Friday Facts #282 - 0.17 in sight'],
    ['Новость дня | 3 декабря 2020, 18:47', {}, 'Новость дня'],
    ['UWP - Выпуск 369', { host: 'podcast.umputun.com' }, 'UWP - Выпуск 369'],
    ['Итоги года | Информационное агентство Украинские Национальные Новости', {}, 'Итоги года | Информационное агентство Украинские Национальные Новости'],
    // Nothing to cut, or nothing would be left.
    ['Заметка о погоде на завтра', {}, 'Заметка о погоде на завтра'],
    ['This is a long title with a colon: Hello there', {}, 'This is a long title with a colon: Hello there'],
    ['Аргументы и Факты', { siteName: 'Аргументы и Факты' }, 'Аргументы и Факты'],
    ['Хабр | Хабр', { siteName: 'Хабр' }, 'Хабр'],
    ['Mozilla - Wikipedia', { host: 'en.wikipedia.org' }, 'Mozilla'],
    ['Wikipedia - Wikipedia', { host: 'en.wikipedia.org' }, 'Wikipedia'],
    ['Новости | ТАСС', { siteName: 'ТАСС' }, 'Новости'],
    ['  Лишние   пробелы —\n  Газета  ', {}, 'Лишние пробелы'],
    ['', {}, ''],
    ['— | —', {}, '— | —'],
  ])('%j (%j)', (title, site, expected) => {
    expect(siteFreeTitle(title, site)).toBe(expected);
  });
});

describe("isSiteName: a text that is only the site's name", () => {
  it.each<[string, SiteNames, boolean]>([
    ['Engadget', { siteName: 'Engadget' }, true],
    ['«Вести Приозерья»', { siteName: 'Вести Приозерья' }, true],
    ['TMZ.com', { host: 'www.tmz.com' }, true],
    ['Silicon Exposed', { host: 'siliconexposed.blogspot.tw' }, true],
    ['V8', { host: 'v8.dev' }, true],
    ['Mozilla', { host: 'www.mozilla.org' }, true],
    ['Minecraft News', { siteName: 'Minecraft Update News' }, true],
    ['Minecraft 1.8 - The Bountiful Update', { siteName: 'Minecraft Update News' }, false],
    ['Лукашенко тайно вступил в должность', { siteName: 'Вести Приозерья', host: 'vesti.ru' }, false],
    ['Com', { host: 'example.com' }, false],
    ['127', { host: '127.0.0.1' }, false],
    ['0', { host: '127.0.0.1' }, false],
    ['1', { host: '[::1]' }, false],
    ['Localhost', { host: 'localhost' }, false],
    ['Example', {}, false],
    ['', { siteName: '' }, false],
  ])('%j (%j): %s', (text, site, expected) => {
    expect(isSiteName(text, site)).toBe(expected);
  });
});
