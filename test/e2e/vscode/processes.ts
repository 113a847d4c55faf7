import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createServer } from 'node:net';

/**
 * Processes the end-to-end test starts: each in its own process group, remembered by PID, and
 * stopped by that PID (the group, so code-server's children go too). Nothing is ever killed by name.
 */
const owned = new Set<number>();

export interface Owned {
  readonly child: ChildProcess;
  readonly pid: number;
  /** stdout and stderr so far (for failure messages). */
  output(): string;
}

export function startOwned(command: string, args: readonly string[], options: SpawnOptions): Owned {
  const child = spawn(command, args, { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid === undefined) throw new Error(`could not start ${command}`);
  const pid = child.pid;
  owned.add(pid);
  child.on('exit', () => owned.delete(pid));
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { child, pid, output: () => log };
}

/** Runs a command to completion in its own group; rejects with its output when it fails. */
export async function runOwned(
  command: string,
  args: readonly string[],
  options: SpawnOptions,
  timeoutMs: number,
): Promise<string> {
  const p = startOwned(command, args, options);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stopOwned(p.pid);
      reject(new Error(`${command} ${args.join(' ')} timed out after ${timeoutMs} ms:\n${p.output()}`));
    }, timeoutMs);
    p.child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(p.output());
      else reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${p.output()}`));
    });
  });
}

/** SIGTERM to the process group, SIGKILL if it is still there after `graceMs`. */
export async function stopOwned(pid: number, graceMs = 3000): Promise<void> {
  if (!owned.has(pid)) return;
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-pid, sig);
    } catch {
      try {
        process.kill(pid, sig);
      } catch {
        /* already gone */
      }
    }
  };
  signal('SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && alive(pid)) await new Promise((r) => setTimeout(r, 100));
  if (alive(pid)) signal('SIGKILL');
  owned.delete(pid);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Last resort when the test process itself goes away: kill whatever is still ours. */
process.on('exit', () => {
  for (const pid of owned) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
});

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
