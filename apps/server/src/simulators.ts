/**
 * `npm run simulators`: the four carrier simulators as a process of their own — a local SMSC
 * (SMPP), the WhatsApp Cloud API, RCS Business Messaging and a Twilio-compatible calls API — for
 * benchmarks and for pointing one or more Ecoa servers at them. Prints the variables to set on
 * Ecoa, then the simulators' control APIs (`/__simulator/counters`, `/options`, `/reset`, …).
 *
 *   npm run simulators -- --callback http://localhost:3000 [--base-port 2775]
 *
 * `--callback` is the Ecoa server the HTTP simulators post their webhooks to (its PUBLIC_URL).
 */
import { parseArgs } from 'node:util';
import { startRcsSimulator } from './modules/channels/providers/rcs/rcs.simulator.ts';
import { startSmscSimulator } from './modules/channels/providers/smpp/index.ts';
import { startVoiceSimulator } from './modules/channels/providers/voice/index.ts';
import {
  startWhatsAppSimulator,
  whatsAppSimulatorEnv,
} from './modules/channels/providers/whatsapp/whatsapp.simulator.ts';

const { values } = parseArgs({
  options: {
    callback: { type: 'string', default: 'http://localhost:3000' },
    'base-port': { type: 'string', default: '0' },
  },
});
const callback = values.callback.replace(/\/+$/, '');
const base = Number(values['base-port']);
const port = (offset: number) => (base > 0 ? base + offset : 0);

const smsc = await startSmscSimulator({ port: port(0), httpPort: port(1) });
const whatsapp = await startWhatsAppSimulator({
  port: port(2),
  callbackUrl: `${callback}/api/webhooks/whatsapp/events`,
});
const rcs = await startRcsSimulator({ port: port(3), callbackUrl: `${callback}/api/webhooks/rcs/events` });
const voice = await startVoiceSimulator({ port: port(4) });

const env = {
  SMPP_URL: smsc.url,
  ...whatsAppSimulatorEnv(whatsapp),
  RCS_API_URL: rcs.config.apiUrl,
  RCS_AGENT_ID: rcs.config.agentId,
  RCS_SERVICE_ACCOUNT_FILE: rcs.config.serviceAccountFile,
  RCS_WEBHOOK_TOKEN: rcs.config.webhookToken,
  VOICE_API_URL: voice.account.apiUrl,
  VOICE_ACCOUNT_SID: voice.account.accountSid,
  VOICE_AUTH_TOKEN: voice.account.authToken,
  VOICE_FROM: voice.account.from,
};
process.stdout.write('# Carrier simulators running. Start Ecoa pointed at them with:\n');
for (const [name, value] of Object.entries(env)) process.stdout.write(`${name}=${value}\n`);
process.stdout.write(
  `# Control APIs: SMSC http://127.0.0.1:${smsc.httpPort}/__simulator/, WhatsApp ${whatsapp.url}/__simulator/, ` +
    `RCS ${rcs.url}/__simulator/, voice ${voice.url}/__simulator/\n# Webhooks go to ${callback}. Ctrl+C stops.\n`,
);

const stop = async () => {
  await Promise.allSettled([smsc.close(), whatsapp.close(), rcs.close(), voice.close()]);
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
