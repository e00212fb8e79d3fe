/**
 * Printing straight to a printer, which only the desktop shell can do: two command names the shell
 * answers itself over the same bridge (the core never sees them), and their shapes.
 */
export const shellPrintCommands = { printers: 'shell.printers', print: 'shell.print' } as const;

export interface PrinterInfo {
  /** The device name webContents.print takes. */
  name: string;
  displayName: string;
  isDefault: boolean;
}

export interface PrintJob {
  /** The PDF to print, in base64. */
  base64: string;
  /** The printer; null: the system's default. */
  deviceName: string | null;
  /** Print without the system's print dialog (the owner's choice in Settings → Печать). */
  silent: boolean;
}
