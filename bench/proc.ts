/** Child servers for benchmarks, and their CPU time and memory read from /proc. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface Server {
  url: string;
  pid: number;
  extra: string;
  stop(): Promise<void>;
}

/**
 * Starts `node <args>` and waits for its `listening on <url>` line. `wrapper`: a command that runs Node
 * (valgrind and its options), whose process is then the server's; `startS`: how long it may take to start.
 */
export async function startServer(args: string[], o: { wrapper?: string[]; startS?: number } = {}): Promise<Server> {
  const [cmd, ...pre] = o.wrapper?.length ? [...o.wrapper, process.execPath] : [process.execPath];
  const child: ChildProcess = spawn(cmd as string, [...pre, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const startS = o.startS ?? 20;
  const line = await new Promise<string>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`server ${args.join(' ')} did not start in ${startS} s`)), startS * 1000);
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (\S+)(.*)/.exec(out);
      if (m) {
        clearTimeout(t);
        resolve(out);
      }
    });
    child.on('exit', (c) => reject(new Error(`server exited with ${c}: ${out}`)));
  });
  const m = /listening on (\S+)(.*)/.exec(line) as RegExpExecArray;
  return {
    url: m[1] as string,
    pid: child.pid as number,
    extra: (m[2] ?? '').trim(),
    stop: () =>
      new Promise<void>((r) => {
        // Stopped already: its exit event will not come again (awaiting it let the process end with cleanup pending).
        if (child.exitCode !== null || child.signalCode !== null) return r();
        child.once('exit', () => r());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 2000).unref();
      }),
  };
}

/** CPU seconds (user + system) of a process. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 (utime, stime) counted from 1; after the comm field they are at 11 and 12.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}
