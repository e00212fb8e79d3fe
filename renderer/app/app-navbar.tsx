import { NavLink, Stack } from '@mantine/core';
import { useT } from '../i18n/use-t';
import { useNavigationStore } from '../stores/navigation-store';
import { pages } from './pages';

/** Main sections. */
export function AppNavbar({ onNavigate }: { onNavigate: () => void }) {
  const t = useT();
  const current = useNavigationStore((s) => s.page);
  const go = useNavigationStore((s) => s.go);
  return (
    <Stack component="nav" gap={2} aria-label={t('nav.main')}>
      {pages.map(({ key, label, icon: Icon }) => (
        <NavLink
          key={key}
          component="button"
          label={t(label)}
          leftSection={<Icon size={17} />}
          active={current === key}
          aria-current={current === key ? 'page' : undefined}
          onClick={() => {
            go(key);
            onNavigate();
          }}
          variant="light"
          fw={500}
          style={{ borderRadius: 'var(--mantine-radius-sm)' }}
          data-testid={`nav-${key}`}
        />
      ))}
    </Stack>
  );
}
