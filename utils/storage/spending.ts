import { storage } from 'wxt/utils/storage';
import type { SpendingTotals } from '../money/totals';

/**
 * What was spent today and this month (`money/totals.ts`): what the spending caps count. Apart from the usage
 * history, so clearing or trimming that list never lifts a cap.
 */
export const spendingStorage = storage.defineItem<SpendingTotals | null>('local:spending-totals', { fallback: null });
