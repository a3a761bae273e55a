/**
 * The short sample the welcome page's "Try it" reads (`sample.html`, an extension page in a tab of its own):
 * in the interface's language, and counted here so the welcome page shows its cost (characters × price) before it is read.
 */
import type { ExtractedText } from './extract';

export const SAMPLE_PAGE = '/sample.html';

export interface Sample {
  title: string;
  paragraphs: string[];
}

export const SAMPLES: Record<'ru' | 'en', Sample> = {
  ru: {
    title: 'Как звучит trySasha',
    paragraphs: [
      'Это короткий пример. Расширение нашло на странице заголовок и два абзаца и отправило их в сервис синтеза речи.',
      'Звук начинает играть, как только приходят первые байты: ждать, пока прочитается весь текст, не нужно. Предложение, которое звучит, подсвечивается на странице.',
    ],
  },
  en: {
    title: 'What trySasha sounds like',
    paragraphs: [
      'This is a short sample. The extension found a title and two paragraphs on this page and sent them to the speech service.',
      'The audio starts as soon as its first bytes arrive: there is no wait for the whole text. The sentence being spoken is highlighted on the page.',
    ],
  },
};

export function sampleFor(locale: string): Sample {
  return locale.toLowerCase().startsWith('ru') ? SAMPLES.ru : SAMPLES.en;
}

/** Code points the sample bills, about (its title and paragraphs; the planner's punctuation aside). */
export function sampleChars(sample: Sample): number {
  return [sample.title, ...sample.paragraphs].reduce((n, t) => n + [...t].length, 0);
}


/** The sample as the page's reader would extract it: its title, then its paragraphs. */
export function sampleText(sample: Sample, url: string): ExtractedText {
  return {
    title: sample.title,
    source: 'article',
    blocks: [{ text: sample.title, kind: 'title' }, ...sample.paragraphs.map((text) => ({ text, kind: 'paragraph' as const }))],
    site: 'trySasha Reader',
    url,
  };
}
