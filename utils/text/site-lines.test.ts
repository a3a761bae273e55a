import { describe, expect, it } from 'vitest';
import { isSiteLine } from './site-lines';

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
    // Kept: the author's sentences that merely mention one
    ['Читайте также книгу, которую я упоминал: она о том же, и написана лучше, чем эта статья, которую вы сейчас читаете.', false],
    ['The photo: a man on a bridge, looking at the river, was taken in 1932 by an unknown reporter who never saw it printed, and it hung in the office for years before anyone asked who he was or why the bridge mattered so much to him.', false],
    ['Он родился 21 февраля 2019 года в Москве.', false],
    ['In 2019 the company said it would sign up for the program.', false],
    ['Фотография стала для него делом жизни.', false],
    ['', false],
  ])('%s → %s', (block, site) => expect(isSiteLine(block)).toBe(site));
});
