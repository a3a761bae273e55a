/**
 * The welcome page's sample, read in a tab of its own: an extension page, where no script can be put, so it
 * answers the background's `extract` and `highlight` itself, as a page's extract script does.
 */
import { installPageReader } from '@/utils/content/page-reader';
import { uiLocale } from '@/utils/pages/i18n';
import { sampleFor } from '@/utils/text/sample';
import { HIGHLIGHT_CSS } from '@/utils/text/highlight';
import './sample.css';

const locale = uiLocale();
document.documentElement.lang = locale.slice(0, 2);
const sample = sampleFor(locale);
const main = document.getElementById('app')!;
const article = document.createElement('article');
const h1 = document.createElement('h1');
h1.textContent = sample.title;
article.append(h1, ...sample.paragraphs.map((text) => Object.assign(document.createElement('p'), { textContent: text })));
main.append(article);
document.title = sample.title;
// The marks' style, as the background puts it into a web page.
document.head.append(Object.assign(document.createElement('style'), { textContent: HIGHLIGHT_CSS }));
installPageReader(document);
