// File System Access members the opened folder uses (Chromium) beyond the DOM library's: a directory's
// entries, and `move` (a rename in place), which not every browser has.

interface FileSystemDirectoryHandle {
  entries(): AsyncIterableIterator<[string, FileSystemFileHandle | FileSystemDirectoryHandle]>;
}

interface FileSystemHandle {
  move?(name: string): Promise<void>;
}

/** Permission to a handle the page holds (Chromium): asked again after a reload. */
interface FileSystemHandle {
  queryPermission?(descriptor?: { mode?: "read" | "readwrite" }): Promise<PermissionState>;
  requestPermission(descriptor?: { mode?: "read" | "readwrite" }): Promise<PermissionState>;
}
