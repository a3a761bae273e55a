/**
 * The book page's controls (runs in the book page): the picker (and a drop anywhere on the page), the
 * book's title and author, its chapters (a click reads from one), and what went wrong.
 */
import { useEffect, useState } from 'preact/hooks';
import { errorText, i18n } from '@/utils/pages/i18n';
import { minutesSeconds } from '@/utils/pages/clock';

const clockTime = (seconds: number) => minutesSeconds(Math.max(0, seconds) * 1000);
import type { BookPage, BookPageState } from '@/utils/book/page';

export function BookBar({ page }: { page: BookPage }) {
  const [state, setState] = useState<BookPageState>(page.state);
  const [reading, setReading] = useState<number | null>(null);
  /** What the box was set to while the book is being written or let go (null: nothing under way). */
  const [keeping, setKeeping] = useState<boolean | null>(null);
  useEffect(() => page.subscribe(setState), [page]);
  useEffect(() => {
    const over = (e: DragEvent) => e.preventDefault();
    const drop = (e: DragEvent) => {
      e.preventDefault();
      const file = e.dataTransfer?.files[0];
      if (file) void page.open(file, file.name);
    };
    document.addEventListener('dragover', over);
    document.addEventListener('drop', drop);
    return () => {
      document.removeEventListener('dragover', over);
      document.removeEventListener('drop', drop);
    };
  }, [page]);

  const session = state.status === 'ready' ? state.session : null;
  const code = state.status === 'error' ? state.code : '';
  const picked = (e: Event) => {
    const input = e.currentTarget as HTMLInputElement;
    const file = input.files?.[0];
    if (file) void page.open(file, file.name);
  };
  const read = (i: number) => {
    setReading(i);
    void page.readChapter(i);
  };

  return (
    <header class="bar" data-testid="book-bar" data-state={state.status}>
      <label class="pick">
        {i18n.t('bookOpen')} <input type="file" data-testid="book-file" accept=".epub,.fb2,.fbz,.zip,.mobi,.azw3,.azw,.prc,application/epub+zip,application/x-fictionbook+xml" onChange={picked} />
      </label>
      <h1 class="title" data-testid="book-title" data-title={session?.opened.title ?? ''}>
        {session ? session.opened.title : state.status === 'loading' ? i18n.t('bookLoading') : i18n.t('bookNone')}
      </h1>
      {session?.opened.author && <p class="author">{session.opened.author}</p>}
      {session?.place && (
        <button
          type="button"
          class="resume"
          data-testid="resume-offer"
          data-chapter={String(session.place.chapter)}
          data-position={String(Math.round(session.place.position - session.place.chapterStart))}
          onClick={() => void page.continueReading()}
        >
          {i18n.t('bookResume', { chapter: session.chapters[session.place.chapter]?.label ?? '', time: clockTime(session.place.position - session.place.chapterStart) })}
        </button>
      )}
      <p class="error" role="alert" data-testid="book-error" data-code={code}>
        {code ? errorText(code) : ''}
      </p>
      {session && (
        <nav aria-label={i18n.t('bookContents')}>
          <ol class="toc" data-testid="book-toc" data-count={String(session.chapters.length)}>
            {session.chapters.map((c, i) => (
              <li key={i} style={{ paddingInlineStart: `${c.depth * 1.2}em` }}>
                <button type="button" data-testid="toc-item" data-index={String(i)} aria-current={reading === i ? 'true' : undefined} onClick={() => read(i)}>
                  {c.label}
                </button>
              </li>
            ))}
          </ol>
        </nav>
      )}
      {session && (
        <label class="keep">
          <input
            type="checkbox"
            data-testid="keep-book"
            data-kept={String(session.kept)}
            checked={keeping ?? session.kept}
            disabled={keeping !== null}
            onChange={(e) => {
              // Busy until the file is written (`data-kept` says when): a tab closed at once could lose the book.
              const on = e.currentTarget.checked;
              setKeeping(on);
              void page.keepBook(on).finally(() => setKeeping(null));
            }}
          />{' '}
          {i18n.t('bookKeep')}
          {session.keepRefused && <span class="error" role="alert"> {i18n.t('bookKeepTooLarge')}</span>}
        </label>
      )}
      {session && <p class="hint">{i18n.t('bookHint')}</p>}
    </header>
  );
}
