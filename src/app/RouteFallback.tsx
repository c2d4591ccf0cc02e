/**
 * What the router shows around screens: a polite 'Loading…' status while the first screen's code
 * arrives, and a plain error page when a route fails (e.g. a stale chunk after a deploy), with a
 * way back.
 */
import { useEffect, useRef } from 'react';
import { useRouteError } from 'react-router-dom';
import styles from './RouteFallback.module.css';

/** The routes' fallback while code loads: an announced 'Loading…' line. */
export function RouteFallback() {
  return (
    <p className={styles.fallback} role="status">
      Loading…
    </p>
  );
}

/** Props of {@link RouteError}. */
export interface RouteErrorProps {
  /** What a route threw while rendering (logged to the console, never shown). */
  error: unknown;
}

/** The error page of a route that failed to render: says what happened and offers a reload. */
export function RouteError({ error }: RouteErrorProps) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    console.error('Route failed to render', error);
    headingRef.current?.focus();
  }, [error]);
  return (
    <main className={styles.error}>
      <h1 className={styles.errorHeading} ref={headingRef} tabIndex={-1}>
        Something went wrong
      </h1>
      <p className={styles.errorText}>
        This page could not be shown. Reloading the console usually fixes it.
      </p>
      <p className={styles.errorText}>
        <a href={`${import.meta.env.BASE_URL}`}>Reload the console</a>
      </p>
    </main>
  );
}

/**
 * The console's route error element: the error page for whatever a route threw (a screen whose
 * code failed to load, e.g. a stale chunk after a deploy, or a render error), until the next
 * navigation.
 */
export function RouteErrorPage() {
  return <RouteError error={useRouteError()} />;
}
