/**
 * MSW handlers shared by the flow stories: a call recorder, a quiet live-event stream, and a
 * stub for audio playback so alert sounds are observable and silent.
 */
import { http, sse, type HttpHandler } from 'msw';
import { spyOn } from 'storybook/test';
import { api } from '../../tests/msw/handlers';

/**
 * waitFor options for the first look at a lazily loaded screen: a cold Vite compiles its module on
 * first use, which can take longer than Testing Library's default second.
 */
export const LAZY = { timeout: 8000 } as const;

/** Every API call the flow made, as 'METHOD /path', in order. Reset with `seen.length = 0`. */
export const seen: string[] = [];

/** Records each API call, then lets the story's own handlers answer it. */
export const recordCalls: HttpHandler = http.all(api('/*'), ({ request }) => {
  seen.push(`${request.method} ${new URL(request.url).pathname}`);
  return undefined;
});

/** The live event stream, open and silent. */
export const quietStream = () => sse(api('/events/stream'), () => undefined);

/** Alert sounds started in this story: the file's path from 'sounds/' and whether it was muted. */
export const plays: { sound: string; muted: boolean }[] = [];

/** Stubs HTMLMediaElement play/load (returns the restore function, for a beforeEach). */
export function stubAudio(): () => void {
  plays.length = 0;
  const play = spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (
    this: HTMLMediaElement,
  ) {
    plays.push({
      sound: new URL(this.src).pathname.replace(/^.*\/(sounds\/)/, '$1'),
      muted: this.muted,
    });
    return Promise.resolve();
  });
  const load = spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
  return () => {
    play.mockRestore();
    load.mockRestore();
  };
}
