/** How a mount's server and export path are compared (workspace/links.ts and the option catalog share them). */
import { ownCopy } from '../text/ownText';

/** `/vol1/` and `vol1` both mean `/vol1`. */
export function normalizeExportPath(path: string): string {
  const trimmed = path.trim().replace(/(?<!\/)\/+$/, '');
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/** Host names are case-insensitive; `[fd00::4]` and `fd00::4` are one IPv6 server. */
export function normalizeServer(server: string): string {
  // A file names a few servers on thousands of lines, and several rules ask for each mount: a look-up
  // is cheaper than three new strings. Bounded, for a language server that runs for days.
  let normalized = NORMALIZED_SERVERS.get(server);
  if (normalized === undefined) {
    normalized = server
      .trim()
      .toLowerCase()
      .replace(/^\[|\]$/g, '');
    if (NORMALIZED_SERVERS.size >= NORMALIZED_SERVERS_KEPT) NORMALIZED_SERVERS.clear();
    // Both may be slices of the file's whole text (lowercase text is returned as is): the cache, which outlives the version, keeps copies (text/ownText.ts).
    normalized = ownCopy(normalized);
    NORMALIZED_SERVERS.set(ownCopy(server), normalized);
  }
  return normalized;
}

const NORMALIZED_SERVERS = new Map<string, string>();
const NORMALIZED_SERVERS_KEPT = 4096; // not a fact: a bound on a cache of server names
