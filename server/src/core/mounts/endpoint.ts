/** How a mount's server and export path are compared (workspace/links.ts and the option catalog share them). */

/** `/vol1/` and `vol1` both mean `/vol1`. */
export function normalizeExportPath(path: string): string {
  const trimmed = path.trim().replace(/(?<!\/)\/+$/, '');
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/** Host names are case-insensitive; `[fd00::4]` and `fd00::4` are one IPv6 server. */
export function normalizeServer(server: string): string {
  return server.trim().toLowerCase().replace(/^\[|\]$/g, '');
}
