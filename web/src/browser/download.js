// Files leaving the page: a download of bytes under a file name.

/** @param {string} name @param {BlobPart} bytes @param {string} [type] */
export function downloadBytes(name, bytes, type = "application/octet-stream") {
  const url = URL.createObjectURL(new Blob([bytes], { type }));
  const link = document.createElement("a");
  Object.assign(link, { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
