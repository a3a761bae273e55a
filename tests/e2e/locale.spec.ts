import { expect, player, test } from './fixtures.ts';

test.describe('a Russian browser', () => {
  test.use({ browserLocale: 'ru-RU' });

  test('gets the interface, the menu and the money in Russian', async ({ ext, sw }) => {
    expect(await sw.evaluate(() => chrome.i18n.getMessage('menuReadSelection'))).toBe('Прочитать выделенное вслух');
    expect(await sw.evaluate(() => chrome.runtime.getManifest().name)).toBe('trySasha — чтение вслух');
    await ext.configure();
    const options = await ext.openOptions();
    await expect(options.locator('html')).toHaveAttribute('lang', 'ru');
    await expect(options.getByRole('button', { name: 'Сохранить и проверить' })).toBeVisible();
    // 100 ₽ in the Russian way: a comma before the kopecks, the sign after the number.
    await expect(options.getByTestId('account')).toContainText(/100,00\s₽/);

    const { tabId } = await ext.openTab('sample-article.html');
    const popup = await ext.openPopup(tabId);
    await expect(player(popup)).toHaveAttribute('data-state', 'finished', { timeout: 30_000 });
    await expect(player(popup)).toContainText('Дочитано');
    await expect(popup.getByRole('button', { name: 'Стоп' })).toBeVisible();
    await expect(popup.getByTestId('balance')).toContainText(/\d+,\d{2,4}\s₽/);
  });
});

test('an English browser gets the English interface', async ({ ext }) => {
  await ext.configure();
  const options = await ext.openOptions();
  await expect(options.locator('html')).toHaveAttribute('lang', 'en');
  await expect(options.getByRole('button', { name: 'Save and check' })).toBeVisible();
  await expect(options.getByTestId('account')).toContainText('RUB');
});
