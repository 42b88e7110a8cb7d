import { expect, test } from './support/fixtures';

test('the home page loads without console errors', async ({ page }) => {
  const res = await page.goto('/');
  expect(res?.status()).toBe(200);
  await expect(page.getByRole('heading', { name: /fleetmap/i }).first()).toBeVisible();
});
