import { describe, expect, it } from 'vitest';

import { formatBanner, parseCliArgs } from '../cli-args.js';
import { startDevnet } from '../devnet.js';

describe('subnet-devnet CLI', () => {
  it('maps every flag to startDevnet options', () => {
    const r = parseCliArgs([
      '--port',
      '0',
      '--block-time',
      '0',
      '--netuid',
      '3',
      '--neurons',
      '5',
      '--validators',
      '2',
      '--tempo',
      '10',
      '--commit-reveal',
      '--seed',
      'demo',
      '--json',
      '--rate-limit',
      '7',
      '--finality-lag',
      '1',
      '--runtime',
      'legacy',
      '--commit-reveal-version',
      '2',
    ]);
    expect(r).toEqual({
      json: true,
      options: {
        port: 0,
        blockTime: 0,
        netuid: 3,
        neurons: 5,
        validators: 2,
        tempo: 10,
        commitReveal: true,
        seed: 'demo',
        weightsSetRateLimit: 7n,
        finalityLag: 1,
        runtime: 'legacy',
        commitRevealVersion: 2,
      },
    });
    expect(parseCliArgs([]).options).toMatchObject({
      port: 9944,
      blockTime: 1000,
      commitReveal: false,
      commitRevealVersion: 4,
      runtime: 'stateful',
      seed: 'devnet',
      weightsSetRateLimit: 100n,
    });
  });

  it('--spec-version sets the legacy runtime spec version (docs/spec.md G.33); absent, no specVersion is passed', () => {
    expect(parseCliArgs(['--runtime', 'legacy', '--spec-version', '400']).options).toMatchObject({ runtime: 'legacy', specVersion: 400 });
    expect(parseCliArgs(['--runtime', 'legacy', '--spec-version', '393']).options).toMatchObject({ specVersion: 393 });
    expect(parseCliArgs(['--runtime', 'legacy', '--spec-version', '422']).options).toMatchObject({ specVersion: 422 });
    expect('specVersion' in parseCliArgs(['--runtime', 'legacy']).options).toBe(false);
  });

  it('reads each numeric flag at both ends of its range, --rate-limit as an exact u64', () => {
    const low = ['--port', '0', '--block-time', '0', '--netuid', '1', '--neurons', '1', '--validators', '0', '--tempo', '1'];
    expect(parseCliArgs([...low, '--rate-limit', '0', '--commit-reveal-version', '0', '--finality-lag', '0']).options).toMatchObject({
      port: 0,
      blockTime: 0,
      netuid: 1,
      neurons: 1,
      validators: 0,
      tempo: 1,
      weightsSetRateLimit: 0n,
      commitRevealVersion: 0,
      finalityLag: 0,
    });
    const high = ['--port', '65535', '--block-time', '2147483647', '--netuid', '4095', '--neurons', '4096', '--validators', '4096', '--tempo', '65535'];
    expect(parseCliArgs([...high, '--rate-limit', '18446744073709551615', '--commit-reveal-version', '65535', '--finality-lag', '64']).options).toMatchObject({
      port: 65535,
      blockTime: 2147483647,
      netuid: 4095,
      neurons: 4096,
      validators: 4096,
      tempo: 65535,
      weightsSetRateLimit: 18446744073709551615n,
      commitRevealVersion: 65535,
      finalityLag: 64,
    });
  });

  it('rejects unknown flags and bad numbers', () => {
    expect(() => parseCliArgs(['--nope'])).toThrow();
    expect(() => parseCliArgs(['--port', '-1'])).toThrow();
    expect(() => parseCliArgs(['--runtime', 'finney'])).toThrow();
  });

  it('--runtime legacy serves finney spec 393 metadata without the stateful epoch items and says so in the banner', async () => {
    const devnet = await startDevnet(parseCliArgs(['--port', '0', '--block-time', '0', '--neurons', '2', '--validators', '1', '--runtime', 'legacy']).options);
    try {
      expect(devnet.options.runtime).toBe('legacy');
      expect(JSON.parse(formatBanner(devnet, true)).runtime).toBe('legacy');
      expect(formatBanner(devnet, false)).toContain('runtime legacy');
    } finally {
      await devnet.stop();
    }
  });

  it('--spec-version 400 runs the legacy runtime at spec 400 and the banner says so (text and JSON); the defaults say 393 and 425', async () => {
    const start = (...args: string[]) =>
      startDevnet(parseCliArgs(['--port', '0', '--block-time', '0', '--neurons', '2', '--validators', '1', ...args]).options);
    for (const [args, banner] of [
      [
        ['--runtime', 'legacy', '--spec-version', '400'],
        ['legacy', 400],
      ],
      [
        ['--runtime', 'legacy'],
        ['legacy', 393],
      ],
      [[], ['stateful', 425]],
    ] as const) {
      const devnet = await start(...args);
      try {
        const json = JSON.parse(formatBanner(devnet, true)) as { runtime: string; spec_version: number };
        expect([json.runtime, json.spec_version]).toEqual(banner);
        expect(formatBanner(devnet, false)).toContain(`runtime ${banner[0]} (spec ${banner[1]})`);
      } finally {
        await devnet.stop();
      }
    }
  });

  it('prints the URL (127.0.0.1) and the dev accounts, as text or one JSON line', async () => {
    const devnet = await startDevnet(parseCliArgs(['--port', '0', '--block-time', '0', '--neurons', '2', '--validators', '1', '--seed', 'cli']).options);
    try {
      const json = JSON.parse(formatBanner(devnet, true)) as { url: string; accounts: { hotkey: string; hotkey_uri: string }[] };
      expect(json.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
      expect(json.accounts.map((a) => a.hotkey)).toEqual(devnet.accounts.map((a) => a.hotkeyAddress));
      expect(json.accounts[1]!.hotkey_uri).toBe('//subnet//cli//hotkey//1');
      const text = formatBanner(devnet, false);
      expect(text).toContain(`listening on ${devnet.url}`);
      expect(text).toContain('uid 0 (validator)');
    } finally {
      await devnet.stop();
    }
  });
});
