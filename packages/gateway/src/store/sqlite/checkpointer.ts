// WAL checkpoints on a worker thread. A checkpoint copies the log into the database file and
// fsyncs it; left to SQLite it runs inside whichever commit crosses the threshold, stalling the
// event loop. A second connection on a worker does it off the hot path.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
const run = () => { try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {} };
const timer = setInterval(run, workerData.intervalMs);
parentPort.on('message', () => { clearInterval(timer); run(); db.close(); parentPort.postMessage('closed'); });
`;

export interface Checkpointer {
  stop(): Promise<void>;
}

export function startCheckpointer(file: string, intervalMs = 500): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER, { eval: true, workerData: { file, intervalMs, driver } });
  worker.unref();
  worker.on('error', () => {
    // The main connection's own (rarer) autocheckpoint remains as the fallback.
  });
  let stopped: Promise<void> | undefined;
  return {
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        const done = () => resolve();
        worker.once('exit', done);
        worker.once('message', () => void worker.terminate().then(done, done));
        worker.postMessage('stop');
        setTimeout(() => void worker.terminate().then(done, done), 2000).unref();
      });
      return stopped;
    },
  };
}
