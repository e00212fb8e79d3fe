import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ErrorCode } from '../shared/errors';
import { shellPrintCommands, type PrinterInfo, type PrintJob } from '../shared/printing';
import type { Result } from '../shared/result';

/** The parts of Electron's BrowserWindow and WebContents printing uses (main.ts passes the real ones). */
interface PrintOptions {
  silent: boolean;
  printBackground: boolean;
  deviceName?: string;
}
interface HiddenWindow {
  loadURL(url: string): Promise<void>;
  close(): void;
  isDestroyed(): boolean;
  webContents: { print(options: PrintOptions, callback: (success: boolean, reason: string) => void): void };
}
type WindowClass = new (options: { show: boolean; webPreferences: Record<string, boolean> }) => HiddenWindow;
interface PrinterSource {
  getPrintersAsync(): Promise<{ name: string; displayName: string }[]>;
}

const refused = (message: string): Result<never> => ({ ok: false, error: { code: ErrorCode.validation, message: 'Validation error', errors: [{ field: 'print', message }] } });

/** Whether a bridge command is one the shell answers itself. */
export const isShellPrintCommand = (name: unknown): name is (typeof shellPrintCommands)[keyof typeof shellPrintCommands] =>
  name === shellPrintCommands.printers || name === shellPrintCommands.print;

function asJob(input: unknown): PrintJob | null {
  const job = input as Partial<PrintJob> | null;
  if (!job || typeof job.base64 !== 'string' || job.base64 === '' || typeof job.silent !== 'boolean') return null;
  if (job.deviceName !== null && typeof job.deviceName !== 'string') return null;
  return { base64: job.base64, deviceName: job.deviceName ?? null, silent: job.silent };
}

/**
 * The desktop shell's printing: the printers the system has, and a PDF sent to one of them through a
 * hidden window's webContents.print (with the device name, and without the dialog when the owner chose
 * silent printing). The PDF goes through a temporary file that is removed once the job is handed over.
 */
export function createShellPrinting(deps: { BrowserWindow: WindowClass; tempDir?: string }) {
  async function print(job: PrintJob): Promise<Result<{ printed: true }>> {
    const bytes = Buffer.from(job.base64, 'base64');
    if (bytes.subarray(0, 5).toString('latin1') !== '%PDF-') return refused('only a PDF can be printed');
    const dir = await mkdtemp(path.join(deps.tempDir ?? tmpdir(), 'shipdesk-print-'));
    const file = path.join(dir, 'labels.pdf');
    const win = new deps.BrowserWindow({ show: false, webPreferences: { sandbox: true, contextIsolation: true, nodeIntegration: false, plugins: true } });
    try {
      await writeFile(file, bytes);
      await win.loadURL(pathToFileURL(file).toString());
      const outcome = await new Promise<{ success: boolean; reason: string }>((resolve) =>
        win.webContents.print({ silent: job.silent, printBackground: true, ...(job.deviceName ? { deviceName: job.deviceName } : {}) }, (success, reason) => resolve({ success, reason })),
      );
      if (!outcome.success) return refused(outcome.reason === 'cancelled' ? 'printing was cancelled' : `the printer refused the job: ${outcome.reason}`);
      return { ok: true, value: { printed: true } };
    } finally {
      if (!win.isDestroyed()) win.close();
      await rm(dir, { recursive: true, force: true });
    }
  }

  return {
    async run(name: string, sender: PrinterSource, input: unknown): Promise<Result<unknown>> {
      if (name === shellPrintCommands.printers) {
        const printers = await sender.getPrintersAsync();
        return { ok: true, value: printers.map((p): PrinterInfo => ({ name: p.name, displayName: p.displayName || p.name, isDefault: Boolean((p as { isDefault?: boolean }).isDefault) })) };
      }
      const job = asJob(input);
      if (!job) return refused('a print job needs base64 (a PDF), deviceName (text or null) and silent (true or false)');
      return print(job);
    },
  };
}
