import { AppShell, Center, Loader } from '@mantine/core';
import { Suspense } from 'react';
import { useDisclosure } from '@mantine/hooks';
import { StorageBanner } from '../components/storage-banner';
import { Toaster } from '../components/toaster';
import { OrderFormDrawer } from '../order-form/order-form-drawer';
import { OrderDetailDrawer } from '../pages/order-detail/order-detail-drawer';
import { useNavigationStore } from '../stores/navigation-store';
import { AppHeader } from './app-header';
import { AppNavbar } from './app-navbar';
import { useFirstScreen } from './first-screen';
import { GlobalHotkeys } from './global-hotkeys';
import { pages } from './pages';

/** Header, navbar, the current page, and what floats above every page (order detail, order form, toasts). */
export function AppLayout() {
  const [navOpened, nav] = useDisclosure(false);
  const page = useNavigationStore((s) => s.page);
  const landed = useNavigationStore((s) => s.landed);
  useFirstScreen();
  const Page = (pages.find((p) => p.key === page) ?? pages[0]).component;
  return (
    <AppShell
      header={{ height: 48 }}
      navbar={{ width: 196, breakpoint: 'md', collapsed: { mobile: !navOpened } }}
      padding={0}
    >
      <AppShell.Header>
        <AppHeader navOpened={navOpened} onToggleNav={nav.toggle} />
      </AppShell.Header>
      <AppShell.Navbar p="xs">
        <AppNavbar onNavigate={nav.close} />
      </AppShell.Navbar>
      <AppShell.Main>
        <StorageBanner />
        {landed && (
          <Suspense
            fallback={
              <Center h={300}>
                <Loader size="sm" />
              </Center>
            }
          >
            <Page />
          </Suspense>
        )}
      </AppShell.Main>
      <OrderDetailDrawer />
      <OrderFormDrawer />
      <Toaster />
      <GlobalHotkeys />
    </AppShell>
  );
}
