import type { Decorator } from '@storybook/react-vite';
import { QueryClientProvider } from '@tanstack/react-query';
import { useLayoutEffect, useState, type ComponentType } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { createQueryClient } from '../../src/app/queryClient';

/** Story parameters read by {@link withScreen}. */
export interface ScreenParameters {
  /** The deep link the screen opens at, relative to /admin (e.g. '/users?page=2'). Default '/'. */
  route?: string;
  /** Route pattern the story renders under (default '*'). */
  path?: string;
}

/**
 * Renders a screen story the way the app does: inside a real router at a deep link and a fresh
 * query cache without retries (so error states show at once). Network calls are answered by the
 * story's MSW handlers (`parameters.msw.handlers`); unmocked /api/ calls fail the story.
 */
export const withScreen: Decorator = (Story, context) => (
  <ScreenHarness screen={(context.parameters.screen ?? {}) as ScreenParameters} Story={Story} />
);

/** The memory router of the story on screen, so a play can go Back and Forward like a browser. */
let currentRouter: ReturnType<typeof createMemoryRouter> | null = null;

/** The router of the screen story being played (for `screenRouter().navigate(-1)` = Back). */
export function screenRouter(): ReturnType<typeof createMemoryRouter> {
  if (!currentRouter) throw new Error('No screen story is rendered');
  return currentRouter;
}

/** The router and query cache of one screen story (a component, so it may hold state). */
function ScreenHarness({ screen, Story }: { screen: ScreenParameters; Story: ComponentType }) {
  const [queryClient] = useState(() => createQueryClient({ retry: false }));
  const [router] = useState(() =>
    createMemoryRouter(
      [
        { path: screen.path ?? '*', element: <Story /> },
        { path: '/login', element: <p>Login page</p> },
      ],
      { initialEntries: [screen.route ?? '/'] },
    ),
  );
  useLayoutEffect(() => {
    currentRouter = router;
  }, [router]);
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
