/**
 * CPU time this process spent since `startCpu()`, in milliseconds: user + system. Blow-up guards
 * (a quadratic walk, an alias bomb) measure this instead of wall time, which on a shared 2-core
 * machine measures the neighbours (issue 31: no wall-time assertion in `npm test`; timing targets
 * belong in `npm run bench`). A real hang still fails through the test's own timeout.
 */
export function startCpu(): NodeJS.CpuUsage {
  return process.cpuUsage();
}

export function cpuMillisSince(started: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}
