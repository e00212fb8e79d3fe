import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { shellPrintCommands } from '../shared/printing';
import { createShellPrinting, isShellPrintCommand } from './printing';

/** A hidden window as Electron would make it: records what was loaded and printed, answers print() as the printer would. */
function fakeWindows(printerAnswer: { success: boolean; reason: string }) {
  const made: FakeWindow[] = [];
  class FakeWindow {
    loaded: string | null = null;
    pdfAtLoad: Buffer | null = null;
    closed = false;
    printed: { silent: boolean; printBackground: boolean; deviceName?: string } | null = null;
    webContents = {
      print: vi.fn((options: { silent: boolean; printBackground: boolean; deviceName?: string }, callback: (success: boolean, reason: string) => void) => {
        this.printed = options;
        setImmediate(() => callback(printerAnswer.success, printerAnswer.reason));
      }),
    };
    constructor(public options: Record<string, unknown>) {
      made.push(this);
    }
    async loadURL(url: string) {
      this.loaded = url;
      this.pdfAtLoad = readFileSync(fileURLToPath(url));
    }
    close() {
      this.closed = true;
    }
    isDestroyed() {
      return this.closed;
    }
  }
  return { made, BrowserWindow: FakeWindow as unknown as Parameters<typeof createShellPrinting>[0]['BrowserWindow'] };
}

const pdf = Buffer.from('%PDF-1.7\n% a label\n').toString('base64');

describe('desktop printing: labels go straight to the chosen printer', () => {
  it('prints the PDF in a hidden window to the named printer, silently when asked, then closes it and removes the file', async () => {
    const windows = fakeWindows({ success: true, reason: '' });
    const printing = createShellPrinting({ BrowserWindow: windows.BrowserWindow });
    const answer = await printing.run(shellPrintCommands.print, { getPrintersAsync: vi.fn() }, { base64: pdf, deviceName: 'Zebra_ZD421', silent: true });
    expect(answer).toEqual({ ok: true, value: { printed: true } });
    const [win] = windows.made;
    expect(win.options).toMatchObject({ show: false, webPreferences: { sandbox: true, nodeIntegration: false } });
    expect(win.pdfAtLoad?.toString()).toContain('%PDF-1.7');
    expect(win.printed).toEqual({ silent: true, printBackground: true, deviceName: 'Zebra_ZD421' });
    expect(win.closed).toBe(true);
    expect(existsSync(fileURLToPath(win.loaded!))).toBe(false);
  });

  it('with no printer chosen and silent off, the system dialog opens for the default printer', async () => {
    const windows = fakeWindows({ success: true, reason: '' });
    await createShellPrinting({ BrowserWindow: windows.BrowserWindow }).run(shellPrintCommands.print, { getPrintersAsync: vi.fn() }, { base64: pdf, deviceName: null, silent: false });
    expect(windows.made[0].printed).toEqual({ silent: false, printBackground: true });
  });

  it('a cancelled dialog, a failing printer and a job that is not a PDF come back as clear refusals', async () => {
    const cancelled = fakeWindows({ success: false, reason: 'cancelled' });
    expect(await createShellPrinting({ BrowserWindow: cancelled.BrowserWindow }).run(shellPrintCommands.print, { getPrintersAsync: vi.fn() }, { base64: pdf, deviceName: null, silent: false })).toMatchObject({
      ok: false,
      error: { errors: [{ message: 'printing was cancelled' }] },
    });
    expect(cancelled.made[0].closed).toBe(true);
    const failing = fakeWindows({ success: false, reason: 'Printer is offline' });
    expect(await createShellPrinting({ BrowserWindow: failing.BrowserWindow }).run(shellPrintCommands.print, { getPrintersAsync: vi.fn() }, { base64: pdf, deviceName: 'HP', silent: true })).toMatchObject({
      ok: false,
      error: { errors: [{ message: 'the printer refused the job: Printer is offline' }] },
    });
    const none = fakeWindows({ success: true, reason: '' });
    const printing = createShellPrinting({ BrowserWindow: none.BrowserWindow });
    for (const bad of [null, {}, { base64: Buffer.from('^XA^XZ').toString('base64'), deviceName: null, silent: true }, { base64: pdf, deviceName: 5, silent: true }, { base64: pdf, deviceName: null }]) {
      expect((await printing.run(shellPrintCommands.print, { getPrintersAsync: vi.fn() }, bad)).ok).toBe(false);
    }
    expect(none.made).toEqual([]);
  });

  it('lists the system\'s printers for Settings → Печать', async () => {
    const getPrintersAsync = vi.fn(async () => [{ name: 'Zebra_ZD421', displayName: 'Zebra ZD421', description: '', options: {} }, { name: 'HP', displayName: '', description: '', options: {} }]);
    const answer = await createShellPrinting({ BrowserWindow: fakeWindows({ success: true, reason: '' }).BrowserWindow }).run(shellPrintCommands.printers, { getPrintersAsync } as never, {});
    expect(answer).toEqual({ ok: true, value: [{ name: 'Zebra_ZD421', displayName: 'Zebra ZD421', isDefault: false }, { name: 'HP', displayName: 'HP', isDefault: false }] });
    expect(isShellPrintCommand('shell.print')).toBe(true);
    expect(isShellPrintCommand('orders.labels')).toBe(false);
  });
});
