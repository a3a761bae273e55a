import { expect, test, TEST_KEY } from './fixtures.ts';

test.describe('options page', () => {
  test('a good key shows the account; the saved key is masked and kept when the field is left empty', async ({ ext, service }) => {
    const page = await ext.openOptions();
    await expect(page.getByTestId('base-url')).toHaveValue('https://api.trysasha.ru');
    await expect(page.getByTestId('confirm-threshold')).toHaveValue('10');
    await expect(page.getByTestId('options-error')).toHaveAttribute('data-code', '');

    await page.getByTestId('api-key').fill(TEST_KEY);
    await page.getByTestId('base-url').fill(service.url);
    await page.getByTestId('save').click();
    const account = page.getByTestId('account');
    await expect(account).toHaveAttribute('data-balance', '100.0000');
    await expect(account).toHaveAttribute('data-price', '1500.0000');
    await expect(account).toHaveAttribute('data-concurrency', '2');
    await expect(account).toContainText('Test account');
    await expect(page.getByTestId('options-error')).toHaveAttribute('data-code', '');

    // Reopened: the key is not shown in full, anywhere on the page.
    await page.reload();
    await expect(page.getByTestId('api-key')).toHaveValue('');
    await expect(page.getByTestId('key-mask')).toBeVisible();
    expect(await page.content()).not.toContain(TEST_KEY);

    // Saving with the key field empty keeps the saved key (the check still passes).
    const before = service.log.filter((e) => e.path === '/v1/account').length;
    await page.getByTestId('save').click();
    await expect(page.getByTestId('account')).toBeVisible();
    await expect.poll(() => service.log.filter((e) => e.path === '/v1/account').length).toBe(before + 1);
    expect(service.log.at(-1)?.key).toBe(TEST_KEY);
  });

  test('a refused key, a disabled account, a closed port and an insecure URL each get their own code', async ({ ext, service }) => {
    service.configure({
      accounts: [
        { key: TEST_KEY, name: 'Test account', balanceRub: '100.0000', pricePerMillionRub: '1500.0000', maxConcurrency: 2 },
        { key: 'vk_live_disabled', name: 'Off', balanceRub: '1.0000', pricePerMillionRub: '1500.0000', maxConcurrency: 1, disabled: true },
      ],
    });
    const page = await ext.openOptions();
    const error = page.getByTestId('options-error');
    const save = async (key: string, url: string) => {
      await page.getByTestId('api-key').fill(key);
      await page.getByTestId('base-url').fill(url);
      await page.getByTestId('save').click();
    };

    await save('vk_live_wrong', service.url);
    await expect(error).toHaveAttribute('data-code', 'unauthorized');
    await expect(page.getByTestId('account')).toHaveCount(0);

    await save('vk_live_disabled', service.url);
    await expect(error).toHaveAttribute('data-code', 'client_disabled');

    await save(TEST_KEY, 'http://127.0.0.1:9'); // nothing listens on the discard port
    await expect(error).toHaveAttribute('data-code', 'network');

    await save(TEST_KEY, 'http://api.example.com');
    await expect(error).toHaveAttribute('data-code', 'bad-url');
    await page.reload();
    await expect(page.getByTestId('base-url')).toHaveValue('http://127.0.0.1:9'); // the insecure URL was not saved

    await save(TEST_KEY, service.url);
    await expect(page.getByTestId('account')).toBeVisible();
    await expect(error).toHaveAttribute('data-code', '');
  });

  test('removing the key forgets it: reading then asks for a key', async ({ ext }) => {
    await ext.configure();
    const page = await ext.openOptions();
    await page.getByTestId('remove-key').click();
    await expect(page.getByTestId('key-mask')).toHaveCount(0);
    await expect(page.getByTestId('account')).toHaveCount(0);

    const { tabId } = await ext.openTab('sample-article.html');
    const popup = await ext.openPopup(tabId);
    await expect(popup.getByTestId('player')).toHaveAttribute('data-state', 'error');
    await expect(popup.getByTestId('error')).toHaveAttribute('data-code', 'no-key');
  });
});
