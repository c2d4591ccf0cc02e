/**
 * Live alerts (§4 Sound alerts, §8): which live event plays which sound, when nothing plays, and
 * that blocked playback is only logged (malformed messages: tests/unit/api/events.test.ts and
 * tests/unit/app/liveEvents.test.ts). Also the sound bank's priming and
 * the mg_sound_enabled setting, with fake audio and an in-memory localStorage.
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  alertSoundForEvent,
  playLiveAlert,
  type LiveMessageDeps,
} from '../../../src/app/useLiveAlerts';
import {
  alertSoundUrl,
  createAlertSoundBank,
  isSoundEnabled,
  type AlertAudio,
  type AlertSound,
} from '../../../src/screens/useSoundAlerts';
import { readStoredFlag, writeStoredFlag } from '../../../src/screens/useStoredFlag';
import { LIVE_EVENT_TYPES } from '../../../src/domain/live';
import { SOUND_STORAGE_KEY } from '../../../src/domain/types';
import { MemoryStorage } from '../support';

function deps(isOn: boolean, play: LiveMessageDeps['play'] = vi.fn()) {
  const warn = vi.fn();
  return { isSoundEnabled: () => isOn, play, warn } satisfies LiveMessageDeps;
}

describe('alertSoundForEvent', () => {
  it('maps the two subscription events to their sounds and nothing else', () => {
    expect(alertSoundForEvent('subscription.new')).toBe('new-sub');
    expect(alertSoundForEvent('subscription.renewal')).toBe('renew');
    for (const other of [
      'subscription.cancelled',
      'access.granted',
      'access.revoked',
      'isr.event',
      'new',
      '',
    ]) {
      expect(alertSoundForEvent(other)).toBeNull();
    }
  });
});

describe('playLiveAlert (the live client plays each parsed event through it)', () => {
  it("plays the new-subscription sound for 'subscription.new' when sound is on", () => {
    const d = deps(true);
    expect(playLiveAlert({ type: 'subscription.new' }, d)).toBe('new-sub');
    expect(d.play).toHaveBeenCalledExactlyOnceWith('new-sub');
    expect(d.warn).not.toHaveBeenCalled();
  });

  it("plays the renewal sound for 'subscription.renewal' when sound is on", () => {
    const d = deps(true);
    expect(playLiveAlert({ type: 'subscription.renewal' }, d)).toBe('renew');
    expect(d.play).toHaveBeenCalledExactlyOnceWith('renew');
  });

  it('plays nothing when sound is off', () => {
    for (const type of ['subscription.new', 'subscription.renewal'] as const) {
      const d = deps(false);
      expect(playLiveAlert({ type }, d)).toBeNull();
      expect(d.play).not.toHaveBeenCalled();
      expect(d.warn).not.toHaveBeenCalled();
    }
  });

  it('reads the sound setting at the moment the message arrives', () => {
    let on = false;
    const play = vi.fn();
    const d = { isSoundEnabled: () => on, play, warn: vi.fn() };
    playLiveAlert({ type: 'subscription.new' }, d);
    on = true;
    playLiveAlert({ type: 'subscription.new' }, d);
    expect(play).toHaveBeenCalledTimes(1);
  });

  it('plays nothing for the other event types, silently', () => {
    for (const type of [
      'subscription.cancelled',
      'access.granted',
      'access.revoked',
      'isr.event',
    ] as const) {
      const d = deps(true);
      expect(playLiveAlert({ type }, d)).toBeNull();
      expect(d.play).not.toHaveBeenCalled();
      expect(d.warn).not.toHaveBeenCalled();
    }
  });

  it('only logs a playback the browser blocks (rejected promise)', async () => {
    const blocked = new DOMException(
      'play() failed because the user did not interact',
      'NotAllowedError',
    );
    const d = deps(true, () => Promise.reject(blocked));
    expect(playLiveAlert({ type: 'subscription.new' }, d)).toBe('new-sub');
    await vi.waitFor(() =>
      expect(d.warn).toHaveBeenCalledWith("Alert sound 'new-sub' was blocked", blocked),
    );
  });

  it('only logs a player that throws', () => {
    const d = deps(true, () => {
      throw new Error('no audio');
    });
    expect(() => playLiveAlert({ type: 'subscription.renewal' }, d)).not.toThrow();
    expect(d.warn).toHaveBeenCalledTimes(1);
  });

  it('never throws and plays at most one sound, whatever the type', () => {
    fc.assert(
      fc.property(fc.constantFrom(...LIVE_EVENT_TYPES), fc.boolean(), (type, isOn) => {
        const d = deps(isOn);
        const sound = playLiveAlert({ type }, d);
        expect(vi.mocked(d.play).mock.calls.length).toBe(sound ? 1 : 0);
        if (!isOn) expect(sound).toBeNull();
      }),
    );
  });
});

/** A fake audio element recording what the bank does to it. */
class FakeAudio implements AlertAudio {
  muted = false;
  currentTime = 3;
  preload = 'none';
  readonly log: string[] = [];
  constructor(
    readonly src: string,
    private readonly result: () => Promise<void>,
  ) {}
  play() {
    this.log.push(`play muted=${this.muted}`);
    return this.result();
  }
  pause() {
    this.log.push('pause');
  }
  load() {
    this.log.push('load');
  }
}

describe('createAlertSoundBank', () => {
  it('serves the sounds from <base>sounds/<name>.mp3', () => {
    expect(alertSoundUrl('new-sub')).toMatch(/sounds\/new-sub\.mp3$/);
    expect(alertSoundUrl('renew')).toMatch(/sounds\/renew\.mp3$/);
    expect(alertSoundUrl('new-sub').startsWith(import.meta.env.BASE_URL)).toBe(true);
  });

  it('primes both sounds: loads, plays muted, then pauses, rewinds and unmutes', async () => {
    const made: FakeAudio[] = [];
    const bank = createAlertSoundBank((src) => {
      const audio = new FakeAudio(src, () => Promise.resolve());
      made.push(audio);
      return audio;
    });
    bank.prime();
    expect(made.map((a) => a.src)).toEqual([alertSoundUrl('new-sub'), alertSoundUrl('renew')]);
    await vi.waitFor(() => expect(made.every((a) => !a.muted)).toBe(true));
    for (const audio of made) {
      expect(audio.preload).toBe('auto');
      expect(audio.log).toEqual(['load', 'play muted=true', 'pause']);
      expect(audio.currentTime).toBe(0);
    }
  });

  it('plays the primed element again, audibly and from the start', async () => {
    const made = new Map<string, FakeAudio>();
    const bank = createAlertSoundBank((src) => {
      const audio = new FakeAudio(src, () => Promise.resolve());
      made.set(src, audio);
      return audio;
    });
    bank.prime();
    await bank.play('renew');
    expect(made.size).toBe(2);
    const renew = made.get(alertSoundUrl('renew'));
    expect(renew?.log.at(-1)).toBe('play muted=false');
    expect(renew?.currentTime).toBe(0);
  });

  it('logs a refused priming and unmutes anyway; play() rejects when blocked', async () => {
    const warn = vi.fn();
    const refused = new DOMException('not allowed', 'NotAllowedError');
    const made: FakeAudio[] = [];
    const bank = createAlertSoundBank((src) => {
      const audio = new FakeAudio(src, () => Promise.reject(refused));
      made.push(audio);
      return audio;
    }, warn);
    expect(() => bank.prime()).not.toThrow();
    await vi.waitFor(() => expect(warn).toHaveBeenCalledTimes(2));
    expect(made.every((a) => !a.muted)).toBe(true);
    await expect(bank.play('new-sub' satisfies AlertSound)).rejects.toBe(refused);
  });
});

describe('the mg_sound_enabled setting', () => {
  beforeEach(() => {
    vi.stubGlobal('localStorage', new MemoryStorage());
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("is off by default and stored as '1' / '0'", () => {
    expect(isSoundEnabled()).toBe(false);
    writeStoredFlag(SOUND_STORAGE_KEY, true);
    expect(localStorage.getItem('mg_sound_enabled')).toBe('1');
    expect(isSoundEnabled()).toBe(true);
    writeStoredFlag(SOUND_STORAGE_KEY, false);
    expect(localStorage.getItem('mg_sound_enabled')).toBe('0');
    expect(isSoundEnabled()).toBe(false);
  });

  it('reads anything but 1 or 0 as the default', () => {
    for (const garbage of ['true', 'yes', '', ' 1', '2']) {
      localStorage.setItem('mg_sound_enabled', garbage);
      expect(readStoredFlag(SOUND_STORAGE_KEY, false)).toBe(false);
      expect(readStoredFlag(SOUND_STORAGE_KEY, true)).toBe(true);
    }
  });

  it('keeps working in memory when storage throws', () => {
    const broken = new MemoryStorage();
    broken.setItem = () => {
      throw new DOMException('quota', 'QuotaExceededError');
    };
    vi.stubGlobal('localStorage', broken);
    expect(() => writeStoredFlag('mg_test_flag', true)).not.toThrow();
    expect(readStoredFlag('mg_test_flag', false)).toBe(true);
  });
});
