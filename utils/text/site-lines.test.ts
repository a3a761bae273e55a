import { describe, expect, it } from 'vitest';
import { isAuthorBio, isCreditedCaption, isDateline, isSiteLine, oneSpaced } from './site-lines';

describe("the site's own lines", () => {
  it.each([
    // Left out
    ['Читайте также: Суд отправил за решетку «минера», который сорвал более сотни заседаний', true],
    ['Читайте материал "Гости инаугурации Лукашенко раскрыли ее странное закулисье"', true],
    ['Related: Rich are paying more in taxes but not as much as they used to', true],
    ['Read more: How the vote was counted', true],
    ['Опубликован в газете "Московский комсомолец" №28372 от 24 сентября 2020', true],
    ['Заголовок в газете: Тайный стыд Лукашенко', true],
    ['A version of this article appears in print on Feb. 22, 2019, on Page A22 of the New York edition', true],
    ['Фото: Илья Московец © URA.RU', true],
    ['Photo: Getty Images', true],
    ['Credit: Jane Doe for The New York Times', true],
    ['Подписывайтесь на наш канал:', true],
    ['Sign up for Command Line, a paid weekly newsletter from Alex Heath.', true],
    ['Feb. 21, 2019', true],
    ['2015-11-22', true],
    ['Image', true],
    ['1 of 24', true],
    ['3 из 12', true],
    ['Gallery: Apple Vision Pro hands-on | 14 Photos', true],
    ['jane.doe@example.com', true],
    ['Пишите: redaktor@gazeta.ru', true],
    ['@janedoe', true],
    ['Follow Jane Doe on Twitter @janedoe.', true],
    ['In 1 of 24 cases the test failed.', false],
    ['Write to us and we will answer every letter, as we always have since 1998, when the first reader wrote to editor@example.com about a typo.', false],
    ['Зарегистрировано Федеральной службой по надзору в сфере связи, информационных технологий и массовых коммуникаций (Роскомнадзор).', true],
    ['Адрес редакции: 390046, г. Рязань, улица Маяковского, дом 1а, строение 3, ОФИС 311.', true],
    ['Все права на материалы, опубликованные на сайте rzn.mk.ru, принадлежат редакции и охраняются в соответствии с законодательством РФ.', true],
    ['Использование материалов, опубликованных на сайте rzn.mk.ru допускается только с письменного разрешения правообладателя', true],
    ['Признаны террористическими и запрещены: «Движение Талибан», «Имарат Кавказ»', true],
    ['© 2024 Example News. All rights reserved.', true],
    ['Все права защищены, говорил он, пока не пришли юристы и не объяснили, что права бывают разные, и что его права на этот дом давно истекли вместе с арендой, которую он не платил три года подряд.', false],
    ['ФОТО.', true],
    ['29 декабря 2020', true],
    ['2/26/2015 7:11 AM PST BY TMZ STAFF', true],
    ['Updated: March 3, 2021 at 10:15 am', true],
    ['PUBLISHED: 10:48, Tue, Nov 19, 2019', true],
    ['| UPDATED: 11:05, Tue, Nov 19, 2019', true],
    ['Published 1 day ago', true],
    ['Updated at 1:23 p.m.', true],
    ['By Justine Coleman - 11/18/19 11:04 PM EST', true],
    ['Published 4:00 am CST, Wednesday, November 20, 2019', true],
    ['Обновлено 12:30 мск, 3 марта 2024', true],
    ['Image 1 of 9', true],
    ['By | November 18, 2019 at 2:26 PM HST - Updated November 18 at 4:46 PM', true],
    ['Updated Nov. 19, 2019 8:21 am ET / Original Nov. 19, 2019 8:02 am ET', true],
    ['Write to Al Root at allen.root@dowjones.com', true],
    ['Email Tariq Malik at tmalik@space.com or follow him @tariqjmalik. Follow us on Twitter @Spacedotcom and on Facebook.', true],
    ['Get breaking news alerts and special reports. The news and stories that matter, delivered to your inbox weekday mornings.', true],
    ['Sign up for The Water Coolest today to get the free daily newsletter delivered to your inbox daily.', true],
    ['Like this story? Share it with a friend!', true],
    ['Also on rt.com Journalists & politicians threatened with sedition arrests as Bolivia purges socialist elements', true],
    ['More articles from Emiliano Bellini', true],
    ['HoustonChronicle.com', true],
    ['Tags: calendario stock car 2018, stock car brasil', true],
    ['Image 1 of / 9', true],
    ["This website uses cookies to improve your experience. We'll assume you're ok with this, but you can opt-out if you wish.Accept Read More", true],
    ['Photo David von Diemar on unsplash.com', true],
    ['Photo by Jane Doe on Unsplash', true],
    ['Pricing: $150–$1,700 depending on tier and timing.', true],
    ['Pricing (estimated): $0 (free) up to US $1,495 for paid passes', true],
    ['Registration: ces.tech', true],
    ['Стоимость: от 5 000 рублей.', true],
    ['We also use affiliate links in articles to earn commissions if you make a purchase after clicking on those links.', true],
    ['Support CNX Software! Donate via cryptocurrencies, become a Patron on Patreon, or purchase goods on Amazon or Aliexpress.', true],
    ['Photo David von Diemar on https://unsplash.com/de/fotos/lila-und-blaue-lichter-auf-der-buhne-uHzf13WevGc', true],
    ['Photo by Pixabay https://www.pexels.com/photo/people-at-a-concert-1190298/', true],
    ['Pricing: Historically, tickets (when in-person) were ~$1,599 via a lottery; many sessions are also available online to developers.', true],
    ['Registration: TBD blackhat.com', true],
    ['Registration: slush.org (use the “Buy tickets” link)', true],
    ['Read our full Acer Nitro 16 review.', true],
    ['Read my review of the Juki TL2010Q for more information.', true],
    ['You can read more about the details of this watch in our in-depth Coros Vertix 2S review.', true],
    ['Back to our top GPS Watches for Running Picks', true],
    ['Shop the Suunto Vertical 2 - stainless steel', true],
    ['First published in The Conversation.', true],
    ['Peoples reported from New York. Associated Press writers Will Weissert in Johnstown, Pennsylvania, and Bill Barrow in Atlanta contributed to this report.', true],
    ['Disclosure: some of my posts contain affiliate links.', true],
    ['If you purchase something through one of those links I may receive a small commission, so thank you for supporting us when you shop!', true],
    ['Inquiries: archie.f@movieweb.com', true],
    // Kept: the author's sentences that merely mention one
    ['Buy the cheaper one unless you need the battery.', false],
    ['Read our review policy before you write to us, because the answer may already be there and it will save you a day of waiting.', false],
    ['First published in 1851, the novel sold fewer than 3,000 copies in its author’s lifetime.', false],
    ['The reporters who contributed to this story were all paid, and the editors say so in every issue.', false],
    ['The price: a week of work and a broken wrist, which she paid gladly, and would again.', false],
    ['Registration opens on Monday, and the first hundred places go to students.', false],
    ['Support for the bill grew after the vote, and donations to the campaign doubled.', false],
    ['Photographers on Unsplash give their pictures away, and some of them now regret it.', false],
    ['Читайте также книгу, которую я упоминал: она о том же, и написана лучше, чем эта статья, которую вы сейчас читаете.', false],
    ['The photo: a man on a bridge, looking at the river, was taken in 1932 by an unknown reporter who never saw it printed, and it hung in the office for years before anyone asked who he was or why the bridge mattered so much to him.', false],
    ['Он родился 21 февраля 2019 года в Москве.', false],
    ['In 2019 the company said it would sign up for the program.', false],
    ['Фотография стала для него делом жизни.', false],
    ['The meeting is at 10:30 on Monday.', false],
    ['Monday at 9 am the doors open to all.', false],
    ['Updated', false],
    ['She signed up for the newsletter in 2015, and it changed how she reads the news: every morning, in her inbox, before the kids woke, a long and careful letter.', false],
    ['Email your MP at once, the campaigners said.', false],
    ['', false],
  ])('%s → %s', (block, site) => expect(isSiteLine(block)).toBe(site));
});

describe('datelines', () => {
  it.each([
    ['Published 3 hours ago', true],
    ['Он пришёл в 12:30.', false],
    ['The vote was held on Nov 19, 2019, and the count went on until late in the evening of the next day.', false],
  ])('%s → %s', (block, want) => expect(isDateline(block)).toBe(want));
});

describe('captions told by their credit', () => {
  it.each([
    ["Israeli Prime Minister Benjamin Netanyahu reacts at the Western Wall. (Thomas Coex/AFP/Getty Images)", true],
    ['Netanyahu pledged to form a new governing coalition quickly. (Reuters)', true],
    ['Vicente Aguiar loads garage door trims into his pickup truck. (AP Photo/Alan Diaz, File)', true],
    ['China has warned they will cease control of Hong Kong (Image: GETTY )', true],
    ['Митинг в центре города (Фото: РИА Новости)', true],
    ['A GPS watch can let you track your data and splits throughout a run. Photo: iRunFar/Eszter Horanyi', true],
    ['The photo is what made her name. Photo: the one on the cover of her first book, taken in a square in Lyon in 1961.', false],
    ['He said the talks would go on (for now).', false],
    ['The data came from the Associated Press (AP).', false],
  ])('%s → %s', (block, want) => expect(isCreditedCaption(block)).toBe(want));
});

describe("the author's biography", () => {
  it.each([
    ['Corey Kilgannon is a Metro reporter covering news and human interest stories.', true],
    ['Steven Mufson covers the White House. Since joining The Post, he has covered economics.', true],
    ['Иван Петров — обозреватель «Ведомостей».', true],
    ['Archie is a writer from South London. He studied Film Production at UCA Farnham.', true],
    ['Mamokete Modiba is a senior researcher with the Gauteng City-Region Observatory.', true],
    ['Jean-Luc started CNX Software in 2010 as a part-time endeavor, before quitting his job.', true],
    ['Smith started the company and left it a year later.', false],
    ['The reporter said nothing.', false],
    ['Donald Trump is a candidate for the presidency.', false],
  ])('%s → %s', (block, want) => expect(isAuthorBio(block)).toBe(want));
});

describe('oneSpaced: the same as collapsing every run of white space and trimming, without a copy when none is loose', () => {
  it.each([
    'Одна строка из слов.',
    '',
    ' ',
    '  два  пробела ',
    'табуляция\tвнутри',
    'перевод\nстроки',
    '\u00a0неразрывный в начале',
    'в конце ',
    ' в начале',
    'тонкий\u2009пробел',
    'line\u2028separator',
    'a b c',
  ])('%j', (s) => {
    expect(oneSpaced(s)).toBe(s.replace(/\s+/g, ' ').trim());
  });
  it('a line already one-spaced is the same string', () => {
    const s = 'Уже как надо: слова через один пробел.';
    expect(oneSpaced(s)).toBe(s);
  });
});
