/**
 * Code loaded on first use (issue 10 "Delivery", dashboard LCP): a part of a view that only shows
 * after the operator opens it (the mobile menu's dialog, the live feed's popover) is loaded then,
 * or ahead of time when the browser is idle or the pointer or focus reaches its button, instead of
 * with the shell every page starts with. Loading code is not fetching data: the views stay pure.
 */
import {
  Component,
  lazy,
  Suspense,
  useEffect,
  useState,
  type Attributes,
  type ComponentType,
  type ErrorInfo,
  type LazyExoticComponent,
  type ReactNode,
} from 'react';

/** Props every on-demand part takes on top of its own. */
export interface OnDemandProps {
  /**
   * Called once when the part's code fails to load (a network error, or a chunk a newer deploy
   * removed); the part then renders nothing, and a later mount loads it again. Without it, the
   * error is only logged by React.
   */
  onLoadError?: (error: unknown) => void;
}

/** What {@link onDemand} gives: the part to render and a way to load it early. */
export interface OnDemandPart<P extends object> {
  /** Renders the part once its code has arrived, nothing before (no layout shift: it is a popup). */
  Part: ComponentType<P & OnDemandProps>;
  /** Starts loading the code now, once; never rejects (a failure is retried by the next call). */
  preload: () => void;
}

/** Renders nothing once a child failed to load, and reports it. */
class LoadBoundary extends Component<
  { onError: (error: unknown) => void; children: ReactNode },
  { failed: boolean }
> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, _info: ErrorInfo) {
    this.props.onError(error);
  }

  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

/**
 * A component of `P` whose code `load` brings (e.g. `() => import('./X').then((m) => m.X)`),
 * loaded on its first render or on `preload()`. A failed load is forgotten, so the next mount or
 * preload tries again instead of failing forever as a bare React.lazy would; the failure itself is
 * contained to the part (see {@link OnDemandProps.onLoadError}), never the page around it.
 */
export function onDemand<P extends object>(load: () => Promise<ComponentType<P>>): OnDemandPart<P> {
  let pending: Promise<ComponentType<P>> | undefined;
  const loadOnce = () =>
    (pending ??= load().catch((error: unknown) => {
      pending = undefined;
      throw error;
    }));
  const makeLazy = () => lazy(() => loadOnce().then((component) => ({ default: component })));
  let Lazy: LazyExoticComponent<ComponentType<P>> = makeLazy();

  function Part({ onLoadError, ...props }: P & OnDemandProps) {
    return (
      <LoadBoundary
        onError={(error) => {
          Lazy = makeLazy(); // React.lazy keeps a rejection: the next mount gets a fresh one
          onLoadError?.(error);
        }}
      >
        <Suspense fallback={null}>
          <Lazy {...(props as P & Attributes)} />
        </Suspense>
      </LoadBoundary>
    );
  }
  return { Part, preload: () => void loadOnce().catch(() => undefined) };
}

/**
 * Calls `task` when the browser is next idle (requestIdleCallback, within `timeoutMs`; a plain
 * timer where it is missing). Returns the cancel function, for an effect's clean-up.
 */
export function whenIdle(task: () => void, timeoutMs = 2000): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(task, { timeout: timeoutMs });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = window.setTimeout(task, 200);
  return () => window.clearTimeout(handle);
}

/** Options of {@link useOnDemandPopup}. */
export interface OnDemandPopupOptions {
  /** Whether the popup is open (the owner's controlled state). */
  isOpen: boolean;
  /** Closes the popup (the owner's onOpenChange(false)): called when its code failed to load. */
  onClose: () => void;
  /** Whether to load the code once the browser is idle (default true). */
  preloadWhenIdle?: boolean;
}

/**
 * The life of a popup whose code is an on-demand `part`: preloaded when the browser is idle
 * (unless told not to), mounted from its first opening on (so it closes, and returns focus, as a
 * popup does), and, should its code fail to load, closed and unmounted, so the next opening loads
 * it anew. Render `part.Part` while `isMounted`, with `onLoadError`.
 */
export function useOnDemandPopup<P extends object>(
  part: OnDemandPart<P>,
  { isOpen, onClose, preloadWhenIdle = true }: OnDemandPopupOptions,
): { isMounted: boolean; onLoadError: () => void } {
  const [isMounted, setMounted] = useState(isOpen);
  if (isOpen && !isMounted) setMounted(true);
  useEffect(() => (preloadWhenIdle ? whenIdle(part.preload) : undefined), [part, preloadWhenIdle]);
  return {
    isMounted,
    onLoadError: () => {
      setMounted(false);
      onClose();
    },
  };
}
