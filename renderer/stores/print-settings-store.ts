import { z } from 'zod';
import { create } from 'zustand';

const storageKey = 'shipdesk.print';

/** How labels come out on this computer: chosen once in Settings → Печать, remembered in localStorage. */
export const printSettingsSchema = z.object({
  /** thermal: 100×150 mm PDF; a4: four A6 labels to a sheet; zpl: a ZPL stream for Zebra-class printers. */
  layout: z.enum(['thermal', 'a4', 'zpl']).catch('thermal'),
  startQuarter: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]).catch(1),
  /** Desktop only: the printer's device name; null: the system default. */
  printer: z.string().nullable().catch(null),
  /** Desktop only: print without the system's dialog. */
  silent: z.boolean().catch(false),
});
export type PrintSettings = z.output<typeof printSettingsSchema>;

function readSaved(): PrintSettings {
  try {
    return printSettingsSchema.parse(JSON.parse(globalThis.localStorage?.getItem(storageKey) ?? '{}'));
  } catch {
    return printSettingsSchema.parse({});
  }
}

/** The orders.labels options the settings stand for. */
export const labelOptions = (s: PrintSettings) =>
  s.layout === 'zpl' ? { format: 'zpl' as const } : s.layout === 'a4' ? { format: 'pdf' as const, size: 'A4' as const, startQuarter: s.startQuarter } : { format: 'pdf' as const, size: '100x150' as const };

interface PrintSettingsState extends PrintSettings {
  change: (patch: Partial<PrintSettings>) => void;
}

export const usePrintSettingsStore = create<PrintSettingsState>((set, get) => ({
  ...readSaved(),
  change: (patch) => {
    set(patch);
    const { layout, startQuarter, printer, silent } = get();
    try {
      globalThis.localStorage?.setItem(storageKey, JSON.stringify({ layout, startQuarter, printer, silent }));
    } catch {
      // Storage may be unavailable (private window); the choice then lasts for this session only.
    }
  },
}));
