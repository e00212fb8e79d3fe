import { createTheme, type MantineThemeOverride } from '@mantine/core';

/** Calm and dense: muted blue, small radii, compact controls; light/dark follow the system. */
export const theme: MantineThemeOverride = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 7, dark: 5 },
  defaultRadius: 'sm',
  cursorType: 'pointer',
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", "Liberation Sans", sans-serif',
  fontFamilyMonospace: 'ui-monospace, "SF Mono", "Cascadia Mono", "Segoe UI Mono", "Liberation Mono", Menlo, monospace',
  headings: { fontWeight: '600' },
  components: {
    Button: { defaultProps: { size: 'sm' } },
    TextInput: { defaultProps: { size: 'sm' } },
    Select: { defaultProps: { size: 'sm' } },
    Tooltip: { defaultProps: { withinPortal: true } },
  },
});
