import type { FoliateBook } from './book';
export function makeFB2(blob: Blob): Promise<FoliateBook>;
