/**
 * Whole blocks that are the site speaking, not the author, told by their wording (pure; the extraction asks
 * it of every block, as it asks `isBoilerplate` of the site's fixed labels): "read also" teasers, print-edition
 * notes, photo credits, subscription prompts, the publisher's legal footer, a lone date or dateline-and-byline. Each pattern is anchored
 * to the whole block and bounded in length: a sentence of the article that merely mentions one is kept.
 * Measured on the hand-checked pages (`tests/corpus-expected/`): see the README's extraction section.
 */

const MONTHS_EN = 'jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?';
const MONTHS_RU = 'январ[яь]|феврал[яь]|марта?|апрел[яь]|ма[яй]|июн[яь]|июл[яь]|августа?|сентябр[яь]|октябр[яь]|ноябр[яь]|декабр[яь]';
const TIME = String.raw`(?:,?\s*(?:at\s+|в\s+)?\d{1,2}[:.]\d{2}(?:\s*[ap]\.?m\.?)?(?:\s*[a-z]{2,4})?)?`;
/** A date alone: "Feb. 21, 2019", "21 февраля 2019", "2015-11-22", "2/26/2015 7:11 AM PST", with a time, maybe "Updated". */
const DATE = new RegExp(
  String.raw`^(?:(?:updated|published|posted|обновлено|опубликовано)\s*:?\s*)?(?:` +
    String.raw`(?:${MONTHS_EN})\.?\s+\d{1,2},?\s+\d{4}|\d{1,2}\s+(?:${MONTHS_EN})\.?,?\s+\d{4}|\d{1,2}\s+(?:${MONTHS_RU})\s+\d{4}(?:\s*г(?:ода|\.)?)?|` +
    String.raw`\d{4}-\d{2}-\d{2}|\d{1,2}[./]\d{1,2}[./]\d{2,4})${TIME}` +
    // A byline after it: "… BY TMZ STAFF".
    String.raw`(?:\s*(?:by|автор:?)\s+[\p{L} .'-]{2,40})?$`,
  'iu',
);

const PATTERNS: ReadonlyArray<[RegExp, number]> = [
  // A media label alone, which screen readers get in place of a picture: "Image", «Фото».
  [/^(?:image|photo|video|фото|видео)\.?$/iu, 8],
  // A teaser of another story: «Читайте также: …», «Читайте материал "…"», "Related: …", "Read more: …", "See also: …".
  [/^(?:читайте|читать|смотрите)\s+(?:также|ещё|еще|материал|по теме)\s*[:«"“„]|^(?:related|read more|read also|also read|see also|more on this|recommended)\s*:/iu, 220],
  // The print edition's note: «Опубликован в газете "…" №… от …», «Заголовок в газете: …», "A version of this article appears in print on …".
  [/^(?:опубликован[оа]?\s+в\s+газете|заголовок\s+в\s+газете\s*:|a version of this (?:article|story) appears in print)/iu, 260],
  // A credit alone: «Фото: …», "Photo: …", "Image: …", "Credit: …", "Getty Images", or any short line with ©.
  [/^(?:фото|photo(?:graph)?|image|credit|источник фото|иллюстрация)\s*:|^(?:photo|image)\s*(?:credit|courtesy)\b|©/iu, 120],
  // The publisher's legal footer: registration, the newsroom's address, rights, the lists of banned organisations
  // Russian media must print (Readability takes it for the article when the article itself is empty).
  [/^(?:зарегистрирован[оа]?\s+(?:федеральной службой|в федеральной службе|роскомнадзор)|свидетельство о регистрации сми|адрес редакции\s*:|все права на материалы,? опубликованные на сайте|использование (?:любых )?материалов.{0,160}?(?:разрешени|гиперссылк)|(?:для читателей:\s*)?в россии признаны экстремистскими|признаны террористическими и запрещены)/iu, 450],
  // A rights line: "© 2024 Example News. All rights reserved.", «… Все права защищены.».
  [/(?:all rights reserved|все права защищены)\.?$|^(?:copyright\s+)?©\s*\d{4}/iu, 200],
  // A gallery's counter or label: "1 of 24", «3 из 12», "Gallery: Apple Vision Pro | 14 Photos".
  [/^\d{1,3}\s*(?:of|из|\/)\s*\d{1,3}$|^(?:gallery|галерея|фотогалерея)\s*:.{0,80}\d+\s*(?:photos|images|фото)$/iu, 100],
  // An author's contact line: an address or handle alone, "Follow Jane on Twitter @jane", «Пишите: name@site.ru».
  [/^(?:(?:e-?mail|contact|write to|пишите(?: автору)?|почта|эл\. почта)\s*:?\s*)?[\w.+-]+@[\w-]+(?:\.[\w-]+)+\.?$|^@\w{2,30}$|^follow\s+.{1,60}\s+on\s+(?:twitter|x|instagram|facebook|threads|bluesky)\b/iu, 140],
  // A subscription or follow prompt: «Подписывайтесь на наш канал», "Sign up for our newsletter", "Subscribe to …".
  [/^(?:подписывайтесь|подпишитесь)(?!\p{L})|^(?:sign up|subscribe)\s+(?:for|to)\b|^(?:get|want)\s+(?:the|our)\s+\S+\s+newsletter/iu, 160],
];

/** A block that is the site's own line (see above), not the author's text. */
export function isSiteLine(block: string): boolean {
  const t = block.replace(/\s+/g, ' ').trim();
  if (t === '' || t.length > 450) return false;
  if (t.length <= 80 && DATE.test(t.replace(/[.]$/, ''))) return true;
  return PATTERNS.some(([pattern, max]) => t.length <= max && pattern.test(t));
}
