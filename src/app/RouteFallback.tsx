/**
 * What the router shows around screens: a polite 'Loading…' status while a lazily loaded screen's
 * code arrives, and a plain error page when a route fails to render (e.g. a stale chunk after a
 * deploy), with a way back.
 */
import { useEffect, useRef } from 'react';
import { useRouteError } from 'react-router-dom';
import styles from './RouteFallback.module.css';

/** The Suspense fallback of the routed screens: an announced 'Loading…' line. */
export function RouteFallback() {
  return (
    <p className={styles.fallback} role="status">
      Loading…
    </p>
  );
}

/** The root route's error element: says what happened and offers a reload of the console. */
export function RouteError() {
  const error = useRouteError();
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
