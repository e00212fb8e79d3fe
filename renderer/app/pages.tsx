import { lazy, type ComponentType } from 'react';
import { IconBox, IconChartBar, IconFileImport, IconNotes, IconSettings, IconTruck } from '../components/icons';
import type { PlainMessageKey } from '../i18n/types';
import { DispatchPage } from '../pages/dispatch/dispatch-page';
import { DraftsPage } from '../pages/drafts/drafts-page';
import { ImportPage } from '../pages/import/import-page';
import { OrdersPage } from '../pages/orders/orders-page';
import { SettingsPage } from '../pages/settings/settings-page';
import type { PageKey } from '../stores/navigation-store';

export interface PageEntry {
  key: PageKey;
  label: PlainMessageKey;
  icon: ComponentType<{ size?: number }>;
  component: ComponentType;
}

/** The charts library is large: the "Today" screen loads it when first shown, not before the orders list. */
const TodayPage = lazy(() => import('../pages/today/today-page').then((m) => ({ default: m.TodayPage })));

/** The navbar and the main area both read this list. */
export const pages: readonly PageEntry[] = [
  { key: 'today', label: 'nav.today', icon: IconChartBar, component: TodayPage },
  { key: 'orders', label: 'nav.orders', icon: IconBox, component: OrdersPage },
  { key: 'dispatch', label: 'dispatch.title', icon: IconTruck, component: DispatchPage },
  { key: 'drafts', label: 'nav.drafts', icon: IconNotes, component: DraftsPage },
  { key: 'import', label: 'nav.import', icon: IconFileImport, component: ImportPage },
  { key: 'settings', label: 'nav.settings', icon: IconSettings, component: SettingsPage },
];
