/**
 * Whole blocks that are the site speaking, not the author, told by their wording (pure; the extraction asks
 * it of every block, as it asks `isBoilerplate` of the site's fixed labels): "read also" teasers, print-edition
 * notes, photo credits, subscription prompts, the publisher's legal footer, a lone date or dateline-and-byline. Each pattern is anchored
 * to the whole block and bounded in length: a sentence of the article that merely mentions one is kept.
 * Measured on the hand-checked pages (`tests/corpus-expected/`): see the README's extraction section.
 */
import { oneSpaced } from './chars';

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

/**
 * Each line's pattern and the longest line it is asked of; and, for a pattern that searches the whole line, a
 * word it cannot match without (looked for first: a plain search is far quicker than the pattern on every
 * paragraph of a long article).
 */
const PATTERNS: ReadonlyArray<readonly [RegExp, number, RegExp?]> = [
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
  [/^(?:(?:image|photo|picture|slide|фото|слайд|изображение)\s+)?\d{1,3}\s*(?:of|из|\/)\s*\/?\s*\d{1,3}$|^(?:gallery|галерея|фотогалерея)\s*:.{0,80}\d+\s*(?:photos|images|фото)$/iu, 100],
  // An author's contact line: an address or handle alone, "Follow Jane on Twitter @jane", «Пишите: name@site.ru».
  [/^(?:(?:e-?mail|contact|inquiries|enquiries|write to|пишите(?: автору)?|почта|эл\. почта)\s*:?\s*)?[\w.+-]+@[\w-]+(?:\.[\w-]+)+\.?$|^@\w{2,30}$|^follow\s+.{1,60}\s+on\s+(?:twitter|x|instagram|facebook|threads|bluesky)\b/iu, 140],
  // "Write to Al Root at allen.root@dowjones.com", "Email Tariq Malik at tmalik@space.com or follow him @tariqjmalik. …".
  [/^(?:e-?mail|write to|contact|reach|напишите)\s+[\p{L} .'’-]{2,40}\s+(?:at|на|:)\s+[\w.+-]+@[\w-]+(?:\.[\w-]+)+/iu, 260],
  // A newsletter's prompt: a short block that asks for a sign-up to something delivered to the inbox.
  [/^(?=.*\b(?:sign up|subscribe|get)\b)(?=.*\b(?:newsletter|inbox|alerts)\b)|^(?=.*(?:подпиш|подписк))(?=.*(?:рассылк|почт))/iu, 220],
  [/^let our news meet your inbox|^(?:breaking news emails|like this (?:story|article)\?.*|also on [\w-]+\.\w{2,}\b.*|more (?:articles|stories|posts) (?:from|by) .{2,40}|(?:другие|все) (?:статьи|материалы|публикации) автора.*)$/iu, 160],
  // A site's name alone: "mysanantonio.com", "HoustonChronicle.com".
  [/^(?:www\.)?[\w-]+(?:\.[\w-]+)*\.(?:com|net|org|ru|co\.uk|uk|de|fr|it|br|info|news|media|io)\.?$/iu, 40],
  // The article's tags: "Tags: a, b, c", «Теги: …».
  [/^(?:tags|tagged|теги|метки)\s*:/iu, 400],
  // A cookie notice: "This website uses cookies to improve your experience…", «Этот сайт использует файлы cookie…».
  [/^(?:this (?:web)?site uses cookies|we use cookies|(?:этот|наш) сайт использует (?:файлы )?cookie|мы используем (?:файлы )?cookie)/iu, 320],
  // A subscription or follow prompt: «Подписывайтесь на наш канал», "Sign up for our newsletter", "Subscribe to …".
  [/^(?:подписывайтесь|подпишитесь)(?!\p{L})|^(?:sign up|subscribe)\s+(?:for|to)\b|^(?:get|want)\s+(?:the|our)\s+\S+\s+newsletter/iu, 160],
  // A stock picture's credit: "Photo David von Diemar on unsplash.com", "Photo by Jane Doe on Unsplash", with the
  // picture's address in place of the site's name ("Photo Jane Doe on https://unsplash.com/de/fotos/…").
  [/^(?:photo|image|picture|фото)(?:\s+by)?\s+.{1,60}?\s+(?:(?:on|from|с|via)\s+)?(?:https?:\/\/)?(?:www\.)?(?:unsplash|pexels|pixabay|flickr|freepik|shutterstock|istock)(?:\.com)?(?:\/\S*)?\.?$/iu, 240],
  // A price row, or a row that is only where to sign up (issue 61: a listing's "Pricing: $150–$1,700 …",
  // "Registration: ces.tech", "Registration: TBD blackhat.com", "Registration: slush.org (use the … link)"),
  // «Стоимость: …», «Регистрация: site.ru».
  [/^(?:pricing|prices?|cost|tickets?|стоимость|цена|цены|билеты)(?:\s*\([^)]{1,30}\))?\s*:\s*\S|^(?:registration|register|tickets?|website|more info|регистрация|сайт)\s*:\s*(?:tb[ad]\s+)?(?:https?:\/\/)?(?:www\.)?[\w-]+(?:\.[\w-]+)+(?:\/\S*)?\.?(?:\s*\([^)]{1,100}\))?$/iu, 140],
  // A pointer to the site's own review elsewhere: "Read our full Acer Nitro 16 review.", "Read my review of the Juki
  // TL2010Q for more information.", "You can read more about … in our in-depth Coros Vertix 2S review."
  [/^(?:you can\s+)?(?:read|see|check out)\b.{0,80}\b(?:our|my)\b.{0,60}\breview\b.{0,60}$/iu, 160],
  // "Back to top", "Back to our top GPS Watches for Running Picks"; a shop button's words, no sentence: "Shop the Suunto Vertical 2".
  [/^back to (?:top|the top|our\b.{1,60})\.?$|^(?:shop|buy)\s+(?:the|now|it|at|on|from)\b(?!.*[.!?]$)/iu, 100],
  // Where the story first ran: "First published in The Conversation.", "This article was originally published on …".
  [/^(?:this (?:article|story|piece|post) was\s+)?(?:first|originally) (?:published|appeared) (?:in|on|by|at)\s+[^,]{2,80}$/iu, 160],
  // Who else reported it: "… Associated Press writers Will Weissert in Johnstown … contributed to this report."
  [/\bcontributed (?:to )?(?:this|the) (?:report|story|article)\.?$/iu, 400, /contributed/iu],
  // An affiliate disclosure: "We also use affiliate links in articles to earn commissions if you make a purchase …",
  // "Disclosure: some of my posts contain affiliate links.", "If you purchase something through one of those links I
  // may receive a small commission, …".
  [/\baffiliate links?\b.{0,120}\b(?:commissions?|earn)\b|\b(?:earn|may earn)\b.{0,40}\bcommission\b.{0,80}\b(?:links?|purchases?)\b|^(?:affiliate\s+)?disclosure\s*:|\bthrough (?:one of )?(?:those|these|our|my|the) links?\b.{0,80}\bcommission\b/iu, 300, /affiliate|commission|disclosure/iu],
  // A prompt to support the site: "Support CNX Software! Donate via cryptocurrencies, become a Patron on Patreon, …".
  [/^(?:please\s+)?support\s+(?:us|[\p{Lu}\d][^!.]{0,40})\s*[!.:].{0,200}\b(?:donate|donation|patreon|patron|buy me a coffee)\b/iu, 260],
];

/**
 * The words a dateline is made of besides numbers: months, weekdays, "published/updated", "ago", times of day
 * and time zones (English and Russian).
 */
const DATELINE_WORDS = new RegExp(
  String.raw`^(?:${MONTHS_EN}|${MONTHS_RU}|mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:rs(?:day)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?|` +
    String.raw`понедельник|вторник|среда|четверг|пятница|суббота|воскресенье|пн|вт|ср|чт|пт|сб|вс|` +
    String.raw`published|updated|posted|modified|original|last|first|on|at|ago|an?|seconds?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?|yesterday|today|` +
    String.raw`опубликовано|обновлено|изменено|дата|публикации|обновления|в|г|года|назад|вчера|сегодня|минуту|минуты|минут|час|часа|часов|день|дня|дней|` +
    String.raw`am|pm|a|p|m|utc|gmt|bst|cet|cest|eet|eest|est|edt|cst|cdt|mst|mdt|pst|pdt|hst|akst|akdt|aest|aedt|ist|jst|kst|et|pt|ct|msk|мск)$`,
  'iu',
);
/** What marks a dateline: "published"/"updated", "ago", a time of day, or a month. */
const DATELINE_MARK = new RegExp(String.raw`published|updated|posted|опубликовано|обновлено|ago|назад|\d{1,2}[:.]\d{2}|(?:${MONTHS_EN})|(?:${MONTHS_RU})`, 'iu');

/**
 * A block that is only when the story was published or updated, maybe after its byline: "PUBLISHED: 10:48, Tue,
 * Nov 19, 2019", "| UPDATED: 11:05, Tue, Nov 19, 2019", "Published 1 day ago", "Updated at 1:23 p.m.", "By Jane
 * Doe - 11/18/19 11:04 PM EST", «Обновлено 12:30 мск, 3 марта 2024». Every word is a date's; up to 90 characters.
 */
export function isDateline(block: string): boolean {
  let t = oneSpaced(block);
  if (t.length > 90) return false;
  // A byline before the date: "By Jane Doe - …", «Автор: Иван Петров | …».
  t = t.replace(/^(?:by|автор:?)(?:\s+[\p{L} .'’-]{2,40}?)?\s*[-–—|•·]\s+/iu, '');
  if (!DATELINE_MARK.test(t)) return false;
  const words = t.match(/[\p{L}]+/gu) ?? [];
  return words.every((w) => DATELINE_WORDS.test(w)) && /\d/.test(t) === true;
}

/** "(Image: GETTY)", "(Photo credit: …)", «(Фото: …)» at the end; or after the caption's last sentence, unbracketed: "… Photo: iRunFar/Eszter Horanyi". */
const CREDIT_LABEL = /\((?:image|photo|picture|pic|photograph|credit|video|фото|иллюстрация)s?\s*(?:credit)?\s*:[^()]{1,80}\)\.?$|[.!?]\s+(?:image|photo|photograph|credit|фото)s?\s*(?:credit)?\s*:\s*[^.:()]{2,60}$/iu;
/** A news or photo agency's credit at the end, alone or after a photographer: "(Reuters)", "(Thomas Coex/AFP/Getty Images)", "(AP Photo/Alan Diaz, File)". */
const AGENCY = String.raw`(?:ap(?: photo)?|afp|reuters|getty images|getty|epa(?:-efe)?|bloomberg|shutterstock|istock|pa(?: wire| media)?|тасс|риа новости)`;
const CREDIT_AGENCY = new RegExp(
  // With a photographer or another agency beside it: "(Thomas Coex/AFP/Getty Images)", "(AP Photo/Alan Diaz, File)".
  String.raw`\((?:[^()]{1,60}\/${AGENCY}|${AGENCY}\/[^()]{1,60})(?:\/[^()]{1,60})?\)\.?$|` +
    // Alone, an agency whose name no sentence ends with in brackets: "(Reuters)", "(Getty Images)".
    String.raw`\((?:reuters|afp|getty images|shutterstock|тасс)\)\.?$`,
  'iu',
);

/**
 * A caption, by the credit it ends with (captions are left out by default, and not every site puts them in
 * `<figcaption>`): "… (Image: GETTY)", "… (AP Photo/Alan Diaz, File)", "… (Photo: Jane Doe/Reuters)", «… (Фото: РИА Новости)». Up to 400 characters.
 */
export function isCreditedCaption(block: string): boolean {
  const t = oneSpaced(block);
  return t.length <= 400 && (CREDIT_LABEL.test(t) || CREDIT_AGENCY.test(t));
}

const NAME = String.raw`\p{Lu}[\p{L}'’.-]+(?:\s+\p{Lu}[\p{L}'’.-]+){0,3}`;
const BIO = new RegExp(
  String.raw`^${NAME}\s+(?:(?:is|was)\s+(?:a|an|the)\s+[^.]{0,120}?\b(?:reporter|correspondent|writer|editor|columnist|journalist|contributor|critic|producer|bureau chief|photographer|researcher|professor|lecturer)s?\b|(?:covers|writes about|reports on)\s)|` +
    // A founder's line: "Jean-Luc started CNX Software in 2010 as a part-time endeavor, …".
    String.raw`^${NAME}\s+(?:started|founded)\s+\p{Lu}[^.]{0,60}?\bin\s+\d{4}\b|` +
    String.raw`^${NAME}\s+[—–-]\s+(?:корреспондент|обозреватель|журналист|редактор|автор|колумнист)`,
  'u',
);

/**
 * The author's biography a site puts under an article: "Corey Kilgannon is a Metro reporter covering …",
 * "Steven Mufson covers the White House. …", «Иван Петров — обозреватель …». Up to 400 characters; the
 * extraction asks it only of an article's last blocks (a story about a reporter is not cut).
 */
export function isAuthorBio(block: string): boolean {
  const t = oneSpaced(block);
  return t.length <= 400 && BIO.test(t);
}

/** A block that is the site's own line (see above), not the author's text. */
export function isSiteLine(block: string): boolean {
  const t = oneSpaced(block);
  if (t === '' || t.length > 450) return false;
  if (t.length <= 80 && DATE.test(t.replace(/[.]$/, ''))) return true;
  // A dateline is 90 characters at most (`isDateline`), its mark and one space before it aside.
  if (t.length <= 92 && isDateline(t.replace(/^[|•·]\s*/, ''))) return true;
  return PATTERNS.some(([pattern, max, needs]) => t.length <= max && (!needs || needs.test(t)) && pattern.test(t));
}
