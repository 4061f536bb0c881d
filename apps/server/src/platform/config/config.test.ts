import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { wantsPrettyLogs } from '../logger.ts';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('applies the blueprint defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
    expect(config.dataDir).toBe(path.resolve('./data'));
    expect(config.databaseUrl).toBeUndefined();
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.stripe).toBeUndefined();
  });

  it('derives PUBLIC_URL from PORT and strips a trailing slash when given', () => {
    expect(loadConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PUBLIC_URL: 'https://app.ecoa.com.br/' }).publicUrl).toBe('https://app.ecoa.com.br');
  });

  it('names every bad variable at once', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'abc', DATABASE_URL: 'mysql://localhost/db', ADMIN_EMAIL: 'not-an-email' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toMatch(/^PORT:/m);
    expect(problems).toMatch(/^DATABASE_URL:/m);
    expect(problems).toMatch(/^ADMIN_EMAIL:/m);
  });

  it('never echoes a password from a bad URL', () => {
    expect(() => loadConfig({ SMTP_URL: 'ftp://user:s3cret@host' })).toThrow(ConfigError);
    try {
      loadConfig({ DATABASE_URL: 'mysql://user:s3cret@host/db' });
    } catch (err) {
      expect((err as Error).message).not.toContain('s3cret');
    }
  });

  it('GTM_CONTAINER_ID: none unless set; a Google Tag Manager container id only', () => {
    expect(loadConfig({}).gtmContainerId).toBeUndefined();
    expect(loadConfig({ GTM_CONTAINER_ID: 'GTM-ABC1234' }).gtmContainerId).toBe('GTM-ABC1234');
    for (const bad of ['UA-12345-1', 'G-ABC1234', 'GTM-abc1234', 'GTM-', 'GTM-ABC1234"><script>', ' GTM-ABC1234']) {
      let error: unknown;
      try {
        loadConfig({ GTM_CONTAINER_ID: bad });
      } catch (err) {
        error = err;
      }
      expect(error, bad).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems.join('\n')).toMatch(
        /^GTM_CONTAINER_ID: must be a Google Tag Manager container id/m,
      );
    }
  });

  it("the embedded SMSC's control API: none unless SMSC_SIMULATOR_CONTROL_PORT names a port", () => {
    expect(loadConfig({}).smscSimulatorControlPort).toBeUndefined();
    expect(loadConfig({ SMSC_SIMULATOR_CONTROL_PORT: '4199' }).smscSimulatorControlPort).toBe(4199);
    expect(() => loadConfig({ SMSC_SIMULATOR_CONTROL_PORT: '70000' })).toThrow(ConfigError);
  });

  it('channel providers: simulators when unset; SMPP_URL with its tps/window; a half-set provider is an error', () => {
    expect(loadConfig({}).providers).toEqual({
      smpp: undefined,
      whatsapp: undefined,
      rcs: undefined,
      voice: undefined,
    });
    expect(
      loadConfig({ SMPP_URL: 'smpp://ecoa:p%40ss@smsc.example.com:2775?tps=250&window=20' }).providers.smpp,
    ).toEqual({
      url: 'smpp://ecoa:p%40ss@smsc.example.com:2775?tps=250&window=20',
      host: 'smsc.example.com',
      port: 2775,
      systemId: 'ecoa',
      password: 'p@ss',
      tps: 250,
      window: 20,
    });
    expect(loadConfig({ SMPP_URL: 'smpp://ecoa:x@10.0.0.5:2775' }).providers.smpp).toMatchObject({
      tps: 100,
      window: 10,
    });
    // The SMSC's id bases, as Kannel's msg-id-type says them: both or neither.
    expect(
      loadConfig({ SMPP_URL: 'smpp://ecoa:x@10.0.0.5:2775?submit_ids=hex&receipt_ids=decimal' }).providers.smpp,
    ).toMatchObject({ idBases: { submit: 'hex', receipt: 'decimal' } });
    for (const bad of [
      'smpp://ecoa:x@h:2775?tps=0',
      'smpp://ecoa:x@h:2775?speed=9',
      'smpp://h:2775',
      'smpp://ecoa:x@h:2775?submit_ids=hex',
      'smpp://ecoa:x@h:2775?submit_ids=hex&receipt_ids=octal',
    ]) {
      expect(() => loadConfig({ SMPP_URL: bad }), bad).toThrow(/SMPP_URL/);
    }
    expect(() => loadConfig({ WHATSAPP_ACCESS_TOKEN: 'EAAG-secret' })).toThrow(/WhatsApp: set all of .*missing/);
    try {
      loadConfig({ WHATSAPP_ACCESS_TOKEN: 'EAAG-secret' });
    } catch (err) {
      expect((err as Error).message).not.toContain('EAAG-secret');
    }
    const whatsapp = {
      WHATSAPP_PHONE_NUMBER_ID: '1065',
      WHATSAPP_ACCESS_TOKEN: 'EAAG',
      WHATSAPP_APP_SECRET: 's',
      WHATSAPP_VERIFY_TOKEN: 'v',
    };
    expect(loadConfig(whatsapp).providers.whatsapp?.messagesPerSecond).toBe(80);
    expect(
      loadConfig({ ...whatsapp, WHATSAPP_MESSAGES_PER_SECOND: '1000' }).providers.whatsapp?.messagesPerSecond,
    ).toBe(1000);
    expect(() => loadConfig({ ...whatsapp, WHATSAPP_MESSAGES_PER_SECOND: '0' })).toThrow(
      /WHATSAPP_MESSAGES_PER_SECOND/,
    );
    const rcs = { RCS_AGENT_ID: 'a@rbm.goog', RCS_SERVICE_ACCOUNT_FILE: 'key.json', RCS_WEBHOOK_TOKEN: 't' };
    expect(loadConfig(rcs).providers.rcs?.messagesPerSecond).toBe(100);
    expect(loadConfig({ ...rcs, RCS_MESSAGES_PER_SECOND: '25' }).providers.rcs?.messagesPerSecond).toBe(25);
    const voice = loadConfig({ VOICE_ACCOUNT_SID: 'AC1', VOICE_AUTH_TOKEN: 't', VOICE_FROM: '+551140000000' });
    expect(voice.providers.voice).toEqual({
      apiUrl: 'https://api.twilio.com',
      accountSid: 'AC1',
      authToken: 't',
      from: '+551140000000',
      callsPerSecond: 1,
    });
    const faster = { VOICE_ACCOUNT_SID: 'AC1', VOICE_AUTH_TOKEN: 't', VOICE_FROM: '+551140000000' };
    expect(loadConfig({ ...faster, VOICE_CALLS_PER_SECOND: '5' }).providers.voice?.callsPerSecond).toBe(5);
    expect(() => loadConfig({ ...faster, VOICE_CALLS_PER_SECOND: '0' })).toThrow(/VOICE_CALLS_PER_SECOND/);
  });

  it('trusts X-Forwarded-For from loopback proxies by default; TRUST_PROXY widens or narrows it', () => {
    expect(loadConfig({}).trustProxy).toBe('loopback');
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,fd00::1' }).trustProxy).toBe('loopback, 10.0.0.0/8,fd00::1');
    for (const bad of ['yes', '10.0.0.0/33', 'proxy.local', '10.0.0.1/8/2']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
    }
  });

  it('card payments: Stripe with a key; else the test checkout only on a loopback PUBLIC_URL or with CHECKOUT_TEST_MODE', () => {
    expect(loadConfig({}).cardPayments).toBe('test'); // http://localhost:3000: a local trial
    expect(loadConfig({ STRIPE_SECRET_KEY: 'sk_test_1', PUBLIC_URL: 'https://app.ecoa.com.br' }).cardPayments).toBe(
      'stripe',
    );
    expect(loadConfig({ STRIPE_SECRET_KEY: 'sk_test_1', CHECKOUT_TEST_MODE: 'true' }).cardPayments).toBe('stripe');
    for (const local of [
      'http://localhost:3000',
      'http://127.0.0.1:8080',
      'http://127.8.9.10',
      'http://[::1]:3000',
      'https://LOCALHOST/',
    ]) {
      expect(loadConfig({ PUBLIC_URL: local }).cardPayments, local).toBe('test');
    }
    for (const remote of [
      'https://app.ecoa.com.br',
      'http://192.168.0.10:3000',
      'http://10.0.0.1',
      'http://128.0.0.1',
      'http://localhost.evil.example',
      'http://127.0.0.1.nip.io',
      'http://[::2]',
      'http://0.0.0.0:3000',
    ]) {
      expect(loadConfig({ PUBLIC_URL: remote }).cardPayments, remote).toBe('unavailable');
      expect(loadConfig({ PUBLIC_URL: remote, CHECKOUT_TEST_MODE: 'true' }).cardPayments, remote).toBe('test');
      expect(loadConfig({ PUBLIC_URL: remote, CHECKOUT_TEST_MODE: 'false' }).cardPayments, remote).toBe('unavailable');
    }
    for (const bad of ['yes', '1', 'TRUE']) {
      expect(() => loadConfig({ CHECKOUT_TEST_MODE: bad }), bad).toThrow(/CHECKOUT_TEST_MODE/);
    }
  });

  it('LOG_FORMAT: auto by default, pretty or json when said; anything else is an error', () => {
    expect(loadConfig({}).logFormat).toBe('auto');
    expect(loadConfig({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(loadConfig({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
    for (const bad of ['JSON', 'text', 'true']) {
      expect(() => loadConfig({ LOG_FORMAT: bad }), bad).toThrow(/LOG_FORMAT: must be pretty, json or auto/);
    }
    // auto: pretty for a person at a terminal, JSON for a collector.
    expect(wantsPrettyLogs('auto', true)).toBe(true);
    expect(wantsPrettyLogs('auto', false)).toBe(false);
    expect(wantsPrettyLogs('pretty', false)).toBe(true);
    expect(wantsPrettyLogs('json', true)).toBe(false);
  });

  it('METRICS_TOKEN: unset by default; a short one is refused without being echoed', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: 'a-long-enough-token' }).metricsToken).toBe('a-long-enough-token');
    try {
      loadConfig({ METRICS_TOKEN: 'short-secret' });
      expect.unreachable();
    } catch (err) {
      expect((err as ConfigError).problems.join('\n')).toMatch(
        /^METRICS_TOKEN: must be at least 16 characters \(got "\*\*\*"\)$/m,
      );
      expect(String(err)).not.toContain('short-secret');
    }
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' }).port).toBe(3000);
  });

  it('stops the server process with a message naming each bad variable', () => {
    const serverDir = path.resolve(import.meta.dirname, '../../..');
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverDir,
      env: { PATH: process.env.PATH, PORT: 'abc', DATABASE_URL: 'not a url' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('PORT');
    expect(result.stderr).toContain('DATABASE_URL');
  });
});
