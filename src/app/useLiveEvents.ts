/**
 * Hook: the live event stream of the signed-in shell (§4 Sound alerts, §7, §8).
 * While mounted it keeps one EventSource open (src/app/liveEvents.ts) and, for each new event:
 * - plays the §4 sound (subscription.new → new-sub.mp3, subscription.renewal → renew.mp3) when
 *   sound is on at that moment and the event is news to this page (not history from before it
 *   started listening);
 * - invalidates the cached figures the event makes stale (resourcesForLiveEvent: dashboard stats,
 *   Users, Subscriptions, Metrics, ISR; access changes: Users and the dashboard), each query
 *   family at most once per second (coalesced), so a burst is one refetch of what is on screen;
 * - after a reconnect, refreshes every one of them once (what was missed may be stale).
 * It returns what the header shows: the stream state, the feed, the unread count, and the feed's
 * open state with its handler.
 */
import { checkSession } from '../api/auth';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { eventsStreamUrl, liveResourceQueryKey } from '../api/events';
import { ALL_LIVE_RESOURCES, resourcesForLiveEvent, type LiveResource } from '../domain/live';
import {
  alertSounds,
  isSoundEnabled as readSoundSetting,
  type AlertSound,
} from '../screens/useSoundAlerts';
import {
  createCoalescer,
  createLiveEventsClient,
  type EventSourceFactory,
  type LiveEventsClient,
  type LiveSnapshot,
  type NetworkWatcher,
  type Timers,
} from './liveEvents';
import { playLiveAlert } from './useLiveAlerts';

/** How often each query family may be invalidated by live events, in ms. */
export const LIVE_INVALIDATION_WINDOW_MS = 1_000;

/** Options of {@link useLiveEvents}; every dependency is injectable (stories, tests). */
export interface UseLiveEventsOptions {
  /** Opens the stream (default: EventSource with credentials; the session cookie authenticates it). */
  createEventSource?: EventSourceFactory;
  /** The browser's network status (default: navigator.onLine and online/offline events). */
  network?: NetworkWatcher;
  /** Whether sound is on when an event arrives (default: the stored mg_sound_enabled setting). */
  isSoundEnabled?: () => boolean;
  /** Plays a sound (default: the page's primed sound bank). */
  play?: (sound: AlertSound) => Promise<void> | void;
}

/** What the header shows of the live stream, plus the feed's open handler. */
export interface LiveEventsView extends LiveSnapshot {
  /** Opens or closes the feed (opening marks every event read). */
  onFeedOpenChange: (isOpen: boolean) => void;
}

const playAlertSound = (sound: AlertSound) => alertSounds().play(sound);

/** What {@link connectLiveEvents} needs besides the hook's options. */
export interface ConnectLiveEventsOptions extends UseLiveEventsOptions {
  /** The query cache whose figures live events refresh. */
  queryClient: QueryClient;
  /** The stream's URL (default eventsStreamUrl()). */
  url?: string;
  /** Timers for the back-off and the coalescing (default: the global ones). */
  timers?: Timers;
  /** Where problems are logged (default console.warn). */
  warn?: (...args: unknown[]) => void;
}

/**
 * Wires one page's live stream to the query cache and the alert sounds (see the module comment).
 * Returns the client (not yet started) and a dispose function for the pending coalesced runs.
 */
export function connectLiveEvents({
  queryClient,
  url = eventsStreamUrl(),
  createEventSource,
  network,
  timers,
  warn,
  isSoundEnabled = readSoundSetting,
  play = playAlertSound,
}: ConnectLiveEventsOptions): { client: LiveEventsClient; dispose: () => void } {
  const invalidations = createCoalescer<LiveResource>(
    (resource) => {
      void queryClient.invalidateQueries({ queryKey: liveResourceQueryKey(resource) });
    },
    LIVE_INVALIDATION_WINDOW_MS,
    timers,
  );
  const client = createLiveEventsClient({
    url,
    createEventSource,
    network,
    timers,
    warn,
    onEvent(event, info) {
      if (info.isNewToPage) playLiveAlert(event, { isSoundEnabled, play, warn });
      for (const resource of resourcesForLiveEvent(event.type)) invalidations.request(resource);
    },
    onReconnect() {
      for (const resource of ALL_LIVE_RESOURCES) invalidations.request(resource);
    },
    onClosed() {
      // A 401 here signs the page out (the client's 401 handling); any other answer changes nothing.
      void checkSession().catch(() => undefined);
    },
  });
  return { client, dispose: () => invalidations.dispose() };
}

/**
 * Keeps the page's live stream open while mounted; see the module comment. The options are read
 * once, when the shell mounts (a change of sound setting needs no reconnect: it is read per event).
 */
export function useLiveEvents(options: UseLiveEventsOptions = {}): LiveEventsView {
  const queryClient = useQueryClient();
  const [live] = useState(() => connectLiveEvents({ ...options, queryClient }));

  useEffect(() => {
    live.client.start();
    return () => {
      live.client.stop();
      live.dispose();
    };
  }, [live]);

  const snapshot = useSyncExternalStore(live.client.subscribe, live.client.getSnapshot);
  return { ...snapshot, onFeedOpenChange: live.client.setFeedOpen };
}
