/**
 * Sound alerts (§4 Sound alerts, §3 "Stored locally"): the on/off setting persisted under
 * mg_sound_enabled ('1'/'0', default off), and the two alert sounds, primed inside the click that
 * turns the setting on so browsers let them play later without a gesture. Blocked playback is
 * only logged, never shown (§8).
 */
import { useCallback } from 'react';
import { SOUND_STORAGE_KEY } from '../domain/types';
import { readStoredFlag, useStoredFlag } from './useStoredFlag';

/** The two alert sounds (§4): a new subscription, and a renewal. */
export type AlertSound = 'new-sub' | 'renew';

/** Every alert sound, in a fixed order. */
export const ALERT_SOUNDS: readonly AlertSound[] = ['new-sub', 'renew'];

/**
 * Where a sound lives: `${BASE_URL}sounds/<name>.mp3`, i.e. /admin/sounds/new-sub.mp3 and
 * /admin/sounds/renew.mp3 in the built console (CONTRACT.md "Where things live").
 */
export function alertSoundUrl(sound: AlertSound): string {
  return `${import.meta.env.BASE_URL}sounds/${sound}.mp3`;
}

/** The part of HTMLAudioElement the alerts use, so tests can pass a fake. */
export interface AlertAudio {
  muted: boolean;
  currentTime: number;
  preload: string;
  play(): Promise<void>;
  pause(): void;
  load(): void;
}

/** Makes the audio element for a sound URL; the default is `new Audio(url)`. */
export type AudioFactory = (url: string) => AlertAudio;

/** The alert sounds of one page: prime them in a user gesture, play them on live events. */
export interface AlertSoundBank {
  /**
   * Creates (once) and unlocks both sounds: loads them and plays them muted, then pauses and
   * rewinds. Call it inside the click that turns sound on. Never throws; refusals are logged.
   */
  prime(): void;
  /** Plays `sound` from the start, audibly. Rejects when the browser blocks playback. */
  play(sound: AlertSound): Promise<void>;
}

const defaultAudioFactory: AudioFactory = (url) => new Audio(url);

/** A bank whose audio elements come from `createAudio` (injectable for tests). */
export function createAlertSoundBank(
  createAudio: AudioFactory = defaultAudioFactory,
  warn: (...args: unknown[]) => void = console.warn,
): AlertSoundBank {
  const elements = new Map<AlertSound, AlertAudio>();
  /** Sounds whose muted priming play is still in flight; play() takes a sound out of it. */
  const priming = new Set<AlertSound>();
  const audioFor = (sound: AlertSound): AlertAudio => {
    let audio = elements.get(sound);
    if (!audio) {
      audio = createAudio(alertSoundUrl(sound));
      audio.preload = 'auto';
      elements.set(sound, audio);
    }
    return audio;
  };

  return {
    prime() {
      for (const sound of ALERT_SOUNDS) {
        try {
          const audio = audioFor(sound);
          priming.add(sound);
          audio.muted = true;
          audio.load();
          audio
            .play()
            .then(() => {
              // A real alert that started meanwhile keeps playing.
              if (!priming.has(sound)) return;
              audio.pause();
              audio.currentTime = 0;
            })
            .catch((error: unknown) => warn(`Alert sound '${sound}' could not be primed`, error))
            .finally(() => {
              if (priming.delete(sound)) audio.muted = false;
            });
        } catch (error) {
          priming.delete(sound);
          warn(`Alert sound '${sound}' could not be primed`, error);
        }
      }
    },
    async play(sound) {
      const audio = audioFor(sound);
      priming.delete(sound);
      audio.muted = false;
      audio.currentTime = 0;
      await audio.play();
    },
  };
}

let pageBank: AlertSoundBank | null = null;

/** The page's one sound bank, so the sounds primed by the toggle are the ones that play. */
export function alertSounds(): AlertSoundBank {
  pageBank ??= createAlertSoundBank();
  return pageBank;
}

/** Whether sound alerts are on right now (mg_sound_enabled is '1'); default off (§4). */
export function isSoundEnabled(): boolean {
  return readStoredFlag(SOUND_STORAGE_KEY, false);
}

/**
 * Hook: the sound setting and its switch handler. Turning it on stores '1' and primes the audio
 * within the same user gesture; turning it off stores '0'.
 */
export function useSoundSetting(): [boolean, (next: boolean) => void] {
  const [isEnabled, setEnabled] = useStoredFlag(SOUND_STORAGE_KEY, false);
  const handleToggle = useCallback(
    (next: boolean) => {
      setEnabled(next);
      if (next) alertSounds().prime();
    },
    [setEnabled],
  );
  return [isEnabled, handleToggle];
}
