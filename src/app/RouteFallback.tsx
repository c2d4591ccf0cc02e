/**
 * What the router shows around screens: a polite 'Loading…' status while a lazily loaded screen's
 * code arrives, and a plain error page when a route fails to render (e.g. a stale chunk after a
 * deploy), with a way back.
 */
import { Component, useEffect, useRef, type ReactNode } from 'react';
import styles from './RouteFallback.module.css';

/** The Suspense fallback of the routed screens: an announced 'Loading…' line. */
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

/** Props of {@link RouteErrorBoundary}. */
export interface RouteErrorBoundaryProps {
  children: ReactNode;
  /** Where the router is (e.g. its location's pathname): the error page clears when it changes. */
  resetKey: string;
}

/**
 * Catches what the routed screens throw while rendering (a lazy screen whose chunk failed to load,
 * a render error) and shows {@link RouteError} in their place until the location changes. Works
 * under any React Router (the console's declarative router, the stories' memory routers).
 */
export class RouteErrorBoundary extends Component<RouteErrorBoundaryProps, BoundaryState> {
  override state: BoundaryState = { failed: false, error: undefined, at: null };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { failed: true, error };
  }

  static getDerivedStateFromProps(
    props: RouteErrorBoundaryProps,
    state: BoundaryState,
  ): Partial<BoundaryState> | null {
    if (state.at === props.resetKey) return null;
    // First render, or the location changed: remember where we are, and clear a shown error.
    return state.at === null
      ? { at: props.resetKey }
      : { failed: false, error: undefined, at: props.resetKey };
  }

  override render() {
    return this.state.failed ? <RouteError error={this.state.error} /> : this.props.children;
  }
}

interface BoundaryState {
  failed: boolean;
  error: unknown;
  /** The resetKey the boundary last rendered at (null before the first render). */
  at: string | null;
}
