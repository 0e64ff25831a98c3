/** A file-system error as "what happened; what to do", pure. Never a bare error code. */
const WORDS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory; check the path',
  EISDIR: 'it is a directory; name a file',
  EACCES: 'permission denied; check its permissions',
  EPERM: 'permission denied; check its permissions',
  ENOSPC: 'the disk is full; free space and run again',
  EDQUOT: 'the disk quota is used up; free space and run again',
  ENOTDIR: 'a part of the path is not a directory; check the path',
  EEXIST: 'it already exists; remove it or pick another name',
  EROFS: 'the file system is read-only; pick a path on a writable one',
  ELOOP: 'the path loops through symbolic links; check the path',
  ENAMETOOLONG: 'the path is too long; pick a shorter one',
  EMFILE: 'too many open files; close some programs or raise the limit (ulimit -n)',
  ENFILE: 'too many open files on the system; try again later',
  EBUSY: 'it is busy (in use by another program); try again later',
  ETXTBSY: 'it is busy (a running program); try again later',
  EXDEV: 'it cannot be moved across file systems; keep it on one file system',
  ENOTEMPTY: 'the directory is not empty',
  EIO: 'an input/output error from the device; check the disk',
  EINVAL: 'the file system does not accept this operation here (a virtual file system such as /proc?)',
};

export function fsReason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code !== undefined && Object.hasOwn(WORDS, code)) return WORDS[code]!;
  if (code !== undefined) return `the system refused it (error ${code})`;
  return err instanceof Error ? err.message : String(err);
}
