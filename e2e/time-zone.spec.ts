// Times read in the agency's zone (the feed's), named on screen, whatever the browser's zone; the switch moves
// them to the browser's own and is remembered; the wall clock keeps the agency's time. The browser runs in a zone
// chosen hours away from the agency's, so the two cannot read alike.
import type { Browser, Page } from '@playwright/test';
import type { Health } from '@/lib/model';
import { expect, guardPage, screenshotInThemes, test } from './support/fixtures';
import { holdFleetData } from './support/held-fleet';

/** Formats an instant as the fleet table's GPS time does, in an IANA zone or a `UTC±hh:mm` offset. */
function expectedIn(page: Page, ms: number, zone: string | null, withDate: boolean): Promise<string> {
  return page.evaluate(
    ([t, z, date]) => {
      const m = z ? /^UTC([+-])(\d{2}):(\d{2})$/.exec(z) : null;
      const offset = m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : null;
      const instant = new Date(offset === null ? t : t + offset * 60_000);
      const timeZone = offset !== null ? 'UTC' : (z ?? undefined);
      return date
        ? instant.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZone })
        : instant.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', timeZone });
    },
    [ms, zone, withDate] as const,
  );
}

async function pageInZone(browser: Browser, appUrl: string, timezoneId: string) {
  const context = await browser.newContext({ timezoneId, viewport: { width: 1440, height: 900 }, baseURL: appUrl });
  const page = await context.newPage();
  return { context, page, guard: guardPage(page, appUrl) };
}

test('times follow the agency zone by default and the browser zone when switched; the wall clock keeps the agency time', async ({ browser, stack, request }) => {
  test.setTimeout(240_000);
  let tz: Health['timezone'] | null = null;
  await expect
    .poll(async () => {
      tz = ((await (await request.get(`${stack.appUrl}/api/status`)).json()) as Health).timezone;
      return tz.source;
    }, { timeout: 90_000, message: 'the feed has decided its zone' })
    .not.toBe('default');
  const agency = tz!.zone;
  // Hours away from the agency's offset, so that no time reads alike in both.
  const offsetH = (tz!.offsetMinutes ?? 0) / 60;
  const browserZone = Math.abs(offsetH - 9) >= 4 ? 'Asia/Tokyo' : 'America/Los_Angeles';

  const { context, page, guard } = await pageInZone(browser, stack.appUrl, browserZone);
  try {
    const held = await holdFleetData(page);
    const bus = held.buses.buses.find((b) => b.plateNumber !== null && b.lastGpsAt !== null && !held.snapshot.vehicles.some((v) => v.busId === b.id && v.gpsAt !== null && v.gpsAt > b.lastGpsAt!));
    expect(bus, 'a bus with a plate whose GPS time is its list time').toBeTruthy();
    // Found by its plate: '#id' also matches trip ids by prefix (bus 25 matched every trip numbered 25…).
    await page.goto(`/fleet?q=${encodeURIComponent(bus!.plateNumber!)}`);
    const row = page.locator(`[role="row"][data-bus-id="${bus!.id}"]`);
    const gpsCell = row.locator('[data-col="Last GPS"]');
    const select = page.getByRole('combobox', { name: 'Times' });

    await expect(select).toHaveValue('agency');
    await expect(select.locator('option:checked')).toHaveText(`Agency (${agency})`);
    await expect(page.getByText(`times in agency time, ${agency}`)).toBeVisible();
    const inAgency = await expectedIn(page, bus!.lastGpsAt!, agency, true);
    const inBrowser = await expectedIn(page, bus!.lastGpsAt!, null, true);
    expect(inAgency).not.toBe(inBrowser);
    await expect(gpsCell).toHaveText(inAgency);
    await screenshotInThemes(page, 'time-switch-agency', () => expect(gpsCell).toHaveText(inAgency));

    await select.selectOption('browser');
    await expect(gpsCell).toHaveText(inBrowser);
    await expect(page.getByText(`times in this browser's time, ${browserZone}`)).toBeVisible();
    // Kept in this browser: a reload shows the browser's time still.
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Times' })).toHaveValue('browser');
    await expect(page.locator(`[role="row"][data-bus-id="${bus!.id}"] [data-col="Last GPS"]`)).toHaveText(inBrowser);
    await screenshotInThemes(page, 'time-switch-browser', () => expect(gpsCell).toHaveText(inBrowser));

    // The wall shows the agency's time whatever the switch says.
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await page.clock.setFixedTime(held.snapshot.generatedAt);
    await page.goto('/wall');
    await expect(page.getByLabel('Clock time zone', { exact: true })).toHaveText(agency, { timeout: 60_000 });
    await expect(page.getByLabel('Clock', { exact: true })).toHaveText(await expectedIn(page, held.snapshot.generatedAt, agency, false));
    guard.verify();
  } finally {
    await context.close();
  }
});
