/**
 * The whole console for flow stories: the app's real route table (src/app/router.tsx) in a memory
 * router at a chosen entry, with a fresh query cache without retries. The router of the story on
 * screen is kept in `flowRouter` so a play function can read the location it ended at.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { createMemoryRouter, RouterProvider, type InitialEntry } from 'react-router-dom';
import { createQueryClient } from '../../src/app/queryClient';
import { appRoutes, signOutOnUnauthorized } from '../../src/app/router';

/** Props of {@link FlowApp}. */
export interface FlowAppProps {
  /** Where the console opens, relative to /admin: a path, or a location with navigation state. */
  initialEntry: InitialEntry;
}

type FlowRouter = ReturnType<typeof createMemoryRouter>;

let current: FlowRouter | null = null;

/** The router of the flow on screen (throws when none is mounted). */
export function flowRouter(): FlowRouter {
  if (!current) throw new Error('no FlowApp is mounted');
  return current;
}

/** The current in-app location as one string: pathname + search + hash. */
export function flowLocation(): string {
  const { pathname, search, hash } = flowRouter().state.location;
  return `${pathname}${search}${hash}`;
}

/** The console at `initialEntry`, exactly as the browser router runs it (minus the /admin basename). */
export function FlowApp({ initialEntry }: FlowAppProps) {
  const [queryClient] = useState(() => createQueryClient({ retry: false }));
  // The 401 handling is registered as the router is made, as src/main.tsx does, so a route
  // loader's first query that answers 401 finds it; it ends with the flow.
  const [{ router, stopUnauthorized }] = useState(() => {
    const created = createMemoryRouter(appRoutes(queryClient), { initialEntries: [initialEntry] });
    current = created;
    return { router: created, stopUnauthorized: signOutOnUnauthorized(created) };
  });
  useEffect(() => stopUnauthorized, [stopUnauthorized]);
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
