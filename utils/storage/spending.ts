import { protectedItem, protectedStore } from './protected-item';
import { localLegacy } from './settings';
import type { SpendingTotals } from '../money/totals';

/**
 * What was spent today and this month (`money/totals.ts`): what the spending caps count. Apart from the usage
 * history, so clearing or trimming that list never lifts a cap. Kept with the key, out of content scripts' reach.
 */
export const spendingStorage = protectedItem<SpendingTotals | null>('spending-totals', null, () => ({ store: protectedStore(), legacy: localLegacy() }));
