import type { Locator } from 'playwright-core';
import { lanTestAddress } from '../helpers/lan';

/** In Settings → Access from other computers: on, the test address typed, the name shop-pc, the port; saved. */
export async function turnOnLan(section: Locator, port: number) {
  await section.getByTestId('lan-enabled').check();
  await section.getByTestId('lan-addresses').fill(lanTestAddress);
  await section.getByTestId('lan-addresses').press('Enter');
  await section.getByTestId('lan-names').fill('shop-pc');
  await section.getByTestId('lan-names').press('Enter');
  await section.getByTestId('lan-port').fill(String(port));
  await section.getByTestId('lan-save').click();
  await section.getByTestId('lan-now').waitFor();
}
