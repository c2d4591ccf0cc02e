/**
 * Live subscription alerts (§4 Sound alerts, §8; CONTRACT.md Live events): a 'subscription.new'
 * event plays the new-subscription sound (/admin/sounds/new-sub.mp3) and 'subscription.renewal'
 * the renewal sound (/admin/sounds/renew.mp3), unless sound is off (mg_sound_enabled). No other
 * type plays anything. Blocked playback is only logged with console.warn, never shown. The stream
 * itself is opened, and its messages parsed, by useLiveEvents (src/app/useLiveEvents.ts).
 */
import type { LiveEvent } from '../domain/live';
import type { AlertSound } from '../screens/useSoundAlerts';

/** The sound a live event type plays (§4), or null for the types that play none. */
export function alertSoundForEvent(type: string): AlertSound | null {
  if (type === 'subscription.new') return 'new-sub';
  if (type === 'subscription.renewal') return 'renew';
  return null;
}

/** What the alert rules need from the page. */
export interface LiveMessageDeps {
  /** Whether sound is on at the moment the event arrives. */
  isSoundEnabled: () => boolean;
  /** Plays a sound; may reject (the browser blocked playback). */
  play: (sound: AlertSound) => Promise<void> | void;
  /** Where problems are logged; default console.warn. */
  warn?: (...args: unknown[]) => void;
}

/**
 * Plays the §4 sound for one parsed event when sound is on. Returns the sound it started, or null
 * (a type without sound, sound off). Never throws; a refused playback is logged through `warn`.
 */
export function playLiveAlert(
  event: Pick<LiveEvent, 'type'>,
  deps: LiveMessageDeps,
): AlertSound | null {
  const warn = deps.warn ?? console.warn;
  const sound = alertSoundForEvent(event.type);
  if (!sound || !deps.isSoundEnabled()) return null;
  try {
    const playing = deps.play(sound);
    if (playing)
      playing.catch((error: unknown) => warn(`Alert sound '${sound}' was blocked`, error));
  } catch (error) {
    warn(`Alert sound '${sound}' was blocked`, error);
  }
  return sound;
}
