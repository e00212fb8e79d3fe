const xlsxType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Hands a file the core produced (base64) to the user as a download: a blob link clicked for them.
 * Works in browser mode and in Electron (which asks where to save it).
 */
export function downloadBase64(fileName: string, base64: string, type = xlsxType): void {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const url = URL.createObjectURL(new Blob([bytes], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The click has started the download; the blob may go once the browser has read it.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
