import { useId, useState, type ReactNode } from 'react';
import type { ActiveIndex } from './useActiveIndex';
import styles from './ChartFrame.module.css';

/** A chart's state: waiting for data, no data, or drawn. */
export type ChartStatus = 'loading' | 'empty' | 'ready';

/** One line of a tooltip: a series' name, colour and formatted value. */
export interface TooltipLine {
  label: string;
  value: string;
  color: string;
}

/** What the tooltip (and the screen reader) says about one datum. */
export interface DatumDescription {
  /** e.g. the day '2026-11-20' or the affiliate's name. */
  heading: string;
  lines: TooltipLine[];
}

/** The data-table alternative: header cells and rows of already formatted cells. */
export interface ChartTableData {
  headers: string[];
  rows: string[][];
}

/** Props of {@link ChartFrame}. */
export interface ChartFrameProps {
  /** The chart's visible title and accessible name (§2 chart titles). */
  title: string;
  /** Heading level of the title (default 3, under a screen's h2 sections). */
  headingLevel?: 2 | 3;
  /** Loading, empty ('No data for this period.') or ready. */
  status: ChartStatus;
  /** A message shown instead of the plot when set (e.g. the missing amount series, §2). */
  message?: ReactNode;
  /** Plot size in px (§2: heights 320–360). */
  width: number;
  height: number;
  /** The legend, above the plot. */
  legend?: ReactNode;
  /** The active datum (keyboard and pointer) and the number of data points. */
  active: ActiveIndex;
  count: number;
  /** Describes datum `index` for the tooltip and aria-valuetext. */
  describe: (index: number) => DatumDescription;
  /** The tooltip anchor for datum `index`, in px from the plot's top-left. */
  anchor: (index: number) => { x: number; y: number };
  /** The drawn chart (an svg). */
  children: ReactNode;
  /** Where the active datum is highlighted: a band (x, width) behind the tooltip, or none. */
  highlight?: (index: number) => { x: number; y: number; width: number; height: number } | null;
  /** The numbers as a table, for screen-reader users and anyone who wants the figures. */
  table: ChartTableData;
}

function describeText({ heading, lines }: DatumDescription): string {
  return `${heading}: ${lines.map((line) => `${line.label} ${line.value}`).join(', ')}`;
}

/**
 * The shell every chart shares: title, legend, loading/empty/message states, the plot as a
 * keyboard-operable slider (←/→ move the active datum, Home/End, Escape; its value text reads the
 * datum aloud) with a pointer/keyboard tooltip, and a collapsible data table with every number.
 */
export function ChartFrame({
  title,
  headingLevel = 3,
  status,
  message,
  width,
  height,
  legend,
  active,
  count,
  describe,
  anchor,
  children,
  highlight,
  table,
}: ChartFrameProps) {
  const titleId = useId();
  const [isTableOpen, setIsTableOpen] = useState(false);
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const index = active.index;
  const description = index !== null ? describe(index) : null;
  const point = index !== null ? anchor(index) : null;
  const band = index !== null && highlight ? highlight(index) : null;
  const flip = point !== null && point.x > width * 0.6;

  let body: ReactNode;
  if (message) {
    body = (
      <div className={styles.placeholder} style={{ height }} data-kind="message">
        {message}
      </div>
    );
  } else if (status === 'loading') {
    body = (
      <div className={styles.placeholder} style={{ height }} role="status" data-kind="loading">
        Loading chart…
      </div>
    );
  } else if (status === 'empty' || count === 0) {
    body = (
      <div className={styles.placeholder} style={{ height }} data-kind="empty">
        No data for this period.
      </div>
    );
  } else {
    body = (
      <>
        <div
          className={styles.plot}
          style={{ width, height }}
          role="slider"
          tabIndex={0}
          aria-label={`${title} — use the arrow keys to read each point`}
          aria-valuemin={1}
          aria-valuemax={count}
          aria-valuenow={(index ?? 0) + 1}
          aria-valuetext={description ? describeText(description) : `${count} points`}
          onKeyDown={active.handleKeyDown}
          onFocus={active.handleFocus}
          onBlur={active.handleBlur}
          data-active={index ?? undefined}
        >
          {band ? (
            <div
              className={styles.highlight}
              style={{ left: band.x, top: band.y, width: band.width, height: band.height }}
            />
          ) : null}
          {children}
          {description && point ? (
            <div
              className={styles.tooltip}
              style={{ left: point.x, top: point.y }}
              data-flip={flip ? 'true' : undefined}
              aria-hidden="true"
              data-testid="chart-tooltip"
            >
              <p className={styles.tooltipHeading}>{description.heading}</p>
              <ul className={styles.tooltipLines}>
                {description.lines.map((line) => (
                  <li key={line.label}>
                    <span className={styles.swatch} style={{ background: line.color }} />
                    <span className={styles.tooltipLabel}>{line.label}</span>
                    <span className={styles.tooltipValue}>{line.value}</span>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </div>
        <details
          className={styles.details}
          onToggle={(event) => setIsTableOpen(event.currentTarget.open)}
        >
          <summary>Data table</summary>
          {/* Built only while open: a 365-day chart's table is ~1,500 cells the page need not lay out. */}
          {isTableOpen ? (
            <table className={styles.table}>
              <caption className="visually-hidden">{title}</caption>
              <thead>
                <tr>
                  {table.headers.map((header) => (
                    <th key={header} scope="col">
                      {header}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {table.rows.map((row, rowIndex) => (
                  <tr key={rowIndex}>
                    {row.map((cell, cellIndex) =>
                      cellIndex === 0 ? (
                        <th key={cellIndex} scope="row">
                          {cell}
                        </th>
                      ) : (
                        <td key={cellIndex}>{cell}</td>
                      ),
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </details>
      </>
    );
  }

  return (
    <section
      className={styles.frame}
      aria-labelledby={titleId}
      data-status={message ? 'message' : status}
    >
      <Heading id={titleId} className={styles.title}>
        {title}
      </Heading>
      {legend && !message && status === 'ready' && count > 0 ? legend : null}
      {body}
    </section>
  );
}
