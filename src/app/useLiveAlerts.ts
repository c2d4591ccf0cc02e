/**
 * Live subscription alerts (§4 Sound alerts, §7 GET /api/admin/events/stream, §8; CONTRACT.md
 * Live events). While signed in, the console listens to the server-sent event stream; a
 * 'subscription.new' message plays the new-subscription sound and 'subscription.renewal' the
 * renewal sound, unless sound is off. Blocked playback, stream errors and bad payloads are only
 * logged with console.warn, never shown. The stream closes when the shell unmounts (log out, 401).
 */
import { useEffect, useEffectEvent } from 'react';
import { eventsStreamUrl, parseLiveEvent } from '../api/events';
import {
  alertSounds,
  isSoundEnabled as readSoundSetting,
  type AlertSound,
} from '../screens/useSoundAlerts';

/** The sound a live event type plays (§4), or null for the types that play none. */
export function alertSoundForEvent(type: string): AlertSound | null {
  if (type === 'subscription.new') return 'new-sub';
  if (type === 'subscription.renewal') return 'renew';
  return null;
}

/** What {@link handleLiveMessage} needs from the page. */
export interface LiveMessageDeps {
  /** Whether sound is on at the moment the message arrives. */
  isSoundEnabled: () => boolean;
  /** Plays a sound; may reject (the browser blocked playback). */
  play: (sound: AlertSound) => Promise<void> | void;
  /** Where problems are logged; default console.warn. */
  warn?: (...args: unknown[]) => void;
}

/**
 * Handles one stream message's data (§4, §8): parses it, picks the sound for its type and plays
 * it when sound is on. Returns the sound it started, or null when it played none (not JSON, no
 * type, a type without sound, sound off). Never throws; a bad payload or a refused playback is
 * logged through `warn` only.
 */
export function handleLiveMessage(data: unknown, deps: LiveMessageDeps): AlertSound | null {
  const warn = deps.warn ?? console.warn;
  const event = typeof data === 'string' ? parseLiveEvent(data) : null;
  if (!event) {
    warn('Live event ignored: the message is not JSON with a type', data);
    return null;
  }
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

/** The part of EventSource the alerts use, so tests and stories can pass a fake. */
export type LiveEventSource = Pick<
  EventSource,
  'addEventListener' | 'removeEventListener' | 'close' | 'readyState'
>;

/** Opens the stream at `url`; the default is `new EventSource(url, {withCredentials: true})`. */
export type EventSourceFactory = (url: string) => LiveEventSource;

const openEventSource: EventSourceFactory = (url) =>
  new EventSource(url, { withCredentials: true });
const playAlertSound = (sound: AlertSound) => alertSounds().play(sound);

/** Options of {@link useLiveAlerts}; every dependency is injectable. */
export interface UseLiveAlertsOptions {
  /** Listen only while true (signed in). Default true. */
  isEnabled?: boolean;
  /** Opens the stream (default: EventSource with credentials; the session cookie authenticates it). */
  createEventSource?: EventSourceFactory;
  /** Whether sound is on when a message arrives (default: the stored mg_sound_enabled setting). */
  isSoundEnabled?: () => boolean;
  /** Plays a sound (default: the page's primed sound bank). */
  play?: (sound: AlertSound) => Promise<void> | void;
}

/**
 * Hook: listens to the live event stream while enabled and plays the §4 alert sounds. The stream
 * opens once per mount (a change of sound setting does not reconnect: it is read per message)
 * and is closed on unmount or when disabled.
 */
export function useLiveAlerts({
  isEnabled = true,
  createEventSource = openEventSource,
  isSoundEnabled = readSoundSetting,
  play = playAlertSound,
}: UseLiveAlertsOptions = {}): void {
  const handleMessage = useEffectEvent((event: MessageEvent) => {
    handleLiveMessage(event.data, { isSoundEnabled, play });
  });

  useEffect(() => {
    if (!isEnabled) return;
    let source: LiveEventSource;
    try {
      source = createEventSource(eventsStreamUrl());
    } catch (error) {
      console.warn('Live event stream could not be opened', error);
      return;
    }
    const onMessage = (event: MessageEvent) => handleMessage(event);
    // EventSource reconnects by itself after a dropped connection; a refused one stays closed.
    const onError = () =>
      console.warn('Live event stream error', { readyState: source.readyState });
    source.addEventListener('message', onMessage);
    source.addEventListener('error', onError);
    return () => {
      source.removeEventListener('message', onMessage);
      source.removeEventListener('error', onError);
      source.close();
    };
  }, [isEnabled, createEventSource]);
}
