// SIGINT (Ctrl-C), SIGTERM and SIGHUP (the terminal closed) as a request to stop. Node's default is
// to die at once, and then the commands a call started live on: each runs in its own session and
// process group, so the terminal's signal never reaches them, and no 'exit' handler runs to stop
// them. Handled, the command cancels its call (which stops the group) and exits by itself.
import { constants } from 'node:os';

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const satisfies readonly NodeJS.Signals[];

/** The conventional exit code of a process stopped by `signal`: 128 + its number. */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 0);
}

/**
 * Calls `onStop` on the first stop signal; a second one exits at once (process 'exit' handlers
 * still run, and they kill whatever process groups are left). Returns a function that removes the
 * handlers, restoring Node's default.
 */
export function onStopSignal(onStop: (signal: NodeJS.Signals) => void): () => void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(signalExitCode(signal));
    stopping = true;
    onStop(signal);
  };
  for (const s of STOP_SIGNALS) process.on(s, handler);
  return () => {
    for (const s of STOP_SIGNALS) process.off(s, handler);
  };
}

/** Resolves with the first stop signal, for commands that serve until stopped; a second one exits at once. */
export function untilStopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => void onStopSignal(resolve));
}
