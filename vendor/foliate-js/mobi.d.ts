import type { FoliateBook } from './book';
export function isMOBI(file: Blob): Promise<boolean>;
export class MOBI {
  constructor(options: { unzlib: (data: Uint8Array) => Uint8Array });
  open(file: Blob): Promise<FoliateBook>;
}
