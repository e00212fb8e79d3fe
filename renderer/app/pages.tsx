import type { ComponentType } from 'react';
import { IconBox } from '../components/icons';
import type { PlainMessageKey } from '../i18n/types';
import { OrdersPage } from '../pages/orders/orders-page';
import type { PageKey } from '../stores/navigation-store';

export interface PageEntry {
  key: PageKey;
  label: PlainMessageKey;
  icon: ComponentType<{ size?: number }>;
  component: ComponentType;
}

/** The navbar and the main area both read this list. */
export const pages: readonly PageEntry[] = [{ key: 'orders', label: 'nav.orders', icon: IconBox, component: OrdersPage }];
