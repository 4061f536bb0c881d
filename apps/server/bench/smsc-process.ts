/**
 * The simulated SMSC as its own process, for the SMPP bench: the SMSC's work (decoding, ids,
 * receipts) then runs on its own core and does not count against the client being measured.
 * Prints one JSON line `{"port", "httpPort", "url"}` when listening; stops when stdin closes.
 *
 *   node --import tsx apps/server/bench/smsc-process.ts '{"receiptLatencyMs":0}'
 */
import { startSmscSimulator } from '../src/modules/channels/providers/smpp/simulator/smsc-simulator.ts';

const overrides = JSON.parse(process.argv[2] ?? '{}');
const simulator = await startSmscSimulator(overrides);
process.stdout.write(`${JSON.stringify({ port: simulator.port, httpPort: simulator.httpPort, url: simulator.url })}\n`);

const stop = () => {
  simulator.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdin.resume();
process.on('SIGTERM', stop);
