/** A file-system error as "what happened; what to do", pure. */
export function fsReason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file or directory; check the path';
    case 'EISDIR':
      return 'it is a directory; name a file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied; check its permissions';
    case 'ENOSPC':
      return 'the disk is full; free space and run again';
    case 'ENOTDIR':
      return 'a part of the path is not a directory; check the path';
    default:
      return code ?? (err instanceof Error ? err.message : String(err));
  }
}
