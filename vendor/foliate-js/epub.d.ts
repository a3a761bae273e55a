import type { FoliateBook } from './book';
export interface EpubLoader {
  loadText(name: string): Promise<string | null> | string | null;
  loadBlob(name: string, type?: string): Promise<Blob | null> | Blob | null;
  getSize(name: string): number;
}
export class EPUB {
  constructor(loader: EpubLoader);
  init(): Promise<FoliateBook & EPUB>;
}
