/**
 * Bandwidth-delay product: the bytes in flight needed to keep a link busy, and so the TCP
 * window one stream needs (seed 002: window = bandwidth x round-trip time).
 */
export function bandwidthDelayProductBytes(bytesPerSecond: number, rttSeconds: number): number {
  return bytesPerSecond * rttSeconds;
}

/** What one TCP stream can carry with a given window (seed 003: 131,400 B at 2 ms is about 64 MB/s). */
export function windowLimitedBytesPerSecond(windowBytes: number, rttSeconds: number): number {
  return windowBytes / rttSeconds;
}
