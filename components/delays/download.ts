'use client';

/** Hands a text file to the browser's download, built entirely on the client. */
export function downloadText(fileName: string, text: string, type = 'text/csv;charset=utf-8') {
  // The byte-order mark makes spreadsheet programs read the file as UTF-8 (route names, the ≥ sign).
  const blob = new Blob(['\uFEFF', text], { type });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Revoke on the next task: revoking synchronously can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
