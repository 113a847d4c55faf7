import { isInside, relativeTo } from './paths';

const VCS_FOLDERS: ReadonlySet<string> = new Set(['.git', '.hg', '.svn']);
import { EnvironmentError, type Environment } from './environment';

/** A file the project read: its text, and whether the bytes were valid UTF-8 (only then may a fix write it). */
export interface ReadFile {
  readonly ok: true;
  readonly path: string;
  /** The path links lead to (where a fix writes). */
  readonly realPath: string;
  readonly text: string;
  /** False when the bytes are not valid UTF-8: the text shows U+FFFD for them and --fix refuses the file. */
  readonly decodable: boolean;
  readonly symlink: boolean;
}

export type SkipReason = 'missing' | 'folder' | 'special' | 'outside' | 'too-large' | 'unreadable';

export interface SkippedFile {
  readonly ok: false;
  readonly path: string;
  readonly reason: SkipReason;
  /** Why, in words, without the path (callers add the path they show). */
  readonly message: string;
}

const STRICT = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const LENIENT = new TextDecoder('utf-8', { ignoreBOM: true });
const UTF16LE = new TextDecoder('utf-16le', { fatal: true });
const UTF16BE = new TextDecoder('utf-16be', { fatal: true });

/**
 * A file's text. UTF-8 (a BOM is kept as U+FEFF); UTF-16 with a byte order mark, as Windows
 * PowerShell 5 writes files (`Out-File`, `>`), is decoded as UTF-16: read as UTF-8 it became text
 * full of NUL characters, which the IaC grammars took minutes to recover from (issue 32). Only valid
 * UTF-8 is `decodable`: fixes write UTF-8, so a UTF-16 file is read but never fixed.
 */
export function decodeBytes(bytes: Uint8Array): { text: string; decodable: boolean } {
  const utf16 =
    bytes[0] === 0xff && bytes[1] === 0xfe ? UTF16LE : bytes[0] === 0xfe && bytes[1] === 0xff ? UTF16BE : undefined;
  if (utf16) {
    try {
      return { text: utf16.decode(bytes), decodable: false };
    } catch {
      // Not UTF-16 after all (an odd length, an unpaired surrogate): read as below.
    }
  }
  try {
    return { text: STRICT.decode(bytes), decodable: true };
  } catch {
    return { text: LENIENT.decode(bytes), decodable: false };
  }
}

export function encodeText(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/**
 * Reads a file only when it is a regular file (never a FIFO, socket or device: they block or never
 * end), no larger than `maxBytes`, and, when `boundary` (a real path) is given, really inside it:
 * a symbolic link that leads out of the repository or workspace folder is not followed.
 */
export function readInside(
  env: Environment,
  path: string,
  boundary: string | undefined,
  maxBytes: number,
): ReadFile | SkippedFile {
  let info;
  try {
    info = env.stat(path);
  } catch (error) {
    return { ok: false, path, reason: 'unreadable', message: `cannot read (${describeFailure(error)})` };
  }
  if (!info) return { ok: false, path, reason: 'missing', message: 'cannot read (no such file)' };
  if (boundary !== undefined && !isInside(boundary, info.realPath)) {
    return {
      ok: false,
      path,
      reason: 'outside',
      message: 'not read: a symbolic link that leads outside the repository or workspace folder',
    };
  }
  // The version control's own folder holds credentials (CI checkouts keep tokens in .git/config): never read through a link.
  const inside = boundary !== undefined ? relativeTo(boundary, info.realPath) : undefined;
  if (inside !== undefined && inside.split('/').some((segment) => VCS_FOLDERS.has(segment))) {
    return {
      ok: false,
      path,
      reason: 'outside',
      message: 'not read: a symbolic link into the version control folder (.git)',
    };
  }
  if (info.kind === 'directory') return { ok: false, path, reason: 'folder', message: 'cannot read (is a folder)' };
  if (info.kind !== 'file')
    return {
      ok: false,
      path,
      reason: 'special',
      message: 'not read: not a regular file (a FIFO, socket, device or broken link)',
    };
  if (info.size > maxBytes)
    return {
      ok: false,
      path,
      reason: 'too-large',
      message: `not read: ${info.size} bytes, more than the ${maxBytes}-byte limit`,
    };
  let bytes: Uint8Array;
  try {
    bytes = env.readFile(path);
  } catch (error) {
    return { ok: false, path, reason: 'unreadable', message: `cannot read (${describeFailure(error)})` };
  }
  // The file grew between the look and the read.
  if (bytes.length > maxBytes)
    return { ok: false, path, reason: 'too-large', message: `not read: more than the ${maxBytes}-byte limit` };
  const { text, decodable } = decodeBytes(bytes);
  return { ok: true, path, realPath: info.realPath, text, decodable, symlink: info.symlink };
}

export function describeFailure(error: unknown): string {
  const code = error instanceof EnvironmentError ? error.code : (error as { code?: string } | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a folder';
    case 'ENOSPC':
      return 'no space left on the device';
    case 'EFBIG':
      return 'file too large for the file system or its limit';
    case 'EDQUOT':
      return 'disk quota exceeded';
    case 'EROFS':
      return 'read-only file system';
    default:
      return code ?? (error instanceof Error ? error.message : 'unknown error');
  }
}
