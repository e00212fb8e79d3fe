import { Box, Text } from '@mantine/core';
import { useMemo } from 'react';
import { code128, fitsCode128 } from '../../shared/barcodes';

interface BarcodeProps {
  value: string;
  /** Accessible name, e.g. "Barcode 000000123456". */
  label: string;
  /** Bar height in pixels. */
  height?: number;
}

const quietModules = 10;

/**
 * The value as a Code 128 barcode in SVG with the digits under it, black on white whatever the theme
 * (a scanner needs the contrast). A value Code 128 cannot carry is shown as text only.
 */
export function Barcode({ value, label, height = 56 }: BarcodeProps) {
  const bars = useMemo(() => {
    if (!fitsCode128(value)) return null;
    const symbol = code128(value);
    return { rects: symbol.bars.map((b) => ({ x: b.x + quietModules, w: b.width })), modules: symbol.modules + 2 * quietModules };
  }, [value]);

  return (
    <Box data-testid="barcode" data-value={value} bg="white" p={6} style={{ borderRadius: 4, display: 'inline-block', border: '1px solid var(--mantine-color-default-border)' }}>
      {bars && (
        <svg
          role="img"
          aria-label={label}
          viewBox={`0 0 ${bars.modules} ${height}`}
          width={Math.min(bars.modules * 2, 360)}
          height={height}
          preserveAspectRatio="none"
          shapeRendering="crispEdges"
          style={{ display: 'block' }}
        >
          {bars.rects.map((r) => (
            <rect key={r.x} x={r.x} y={0} width={r.w} height={height} fill="#000" />
          ))}
        </svg>
      )}
      <Text ta="center" ff="monospace" fz="xs" c="black" mt={2} style={{ letterSpacing: '0.08em' }} aria-hidden={bars ? true : undefined}>
        {value}
      </Text>
    </Box>
  );
}
